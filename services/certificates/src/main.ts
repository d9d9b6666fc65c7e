#!/usr/bin/env node
// orch-certificates: the certificates service (issue 16): the gateway's checks of
// CertificateSigningRequest writes over gRPC, and its controllers through the public API.
import { optionsOrExit } from '@orch/component-base/flags';
import { createLogger } from '@orch/component-base/logs';
import { runUntilSignal } from '@orch/component-base/run';
import { newCertificatesConfig } from './config.js';
import { certificatesOptions } from './options.js';
import { CertificatesServer } from './server.js';

const options = optionsOrExit(() => certificatesOptions());
const log = createLogger('certificates', options.logLevel);
runUntilSignal(log, new CertificatesServer(newCertificatesConfig(options, log)));
