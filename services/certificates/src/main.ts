#!/usr/bin/env node
// orch-certificates: the certificates service: the gateway's checks of
// CertificateSigningRequest writes over gRPC, and its controllers through the public API.
import { loadKubeconfig } from '@orch/apimachinery/client';
import { optionsOrExit } from '@orch/component-base/flags';
import { createLogger } from '@orch/component-base/logs';
import { runUntilSignal } from '@orch/component-base/run';
import { newCertificatesConfig } from './config.js';
import { CertificateControllers } from './controllers/index.js';
import { certificatesOptions } from './options.js';
import { CertificatesServer } from './server.js';

const options = optionsOrExit(() => certificatesOptions());
const log = createLogger('certificates', options.logLevel);
const config = newCertificatesConfig(options, log);
// The controllers act through the public API, so they run only with --kubeconfig.
const api = config.api ? loadKubeconfig(options.kubeconfig) : undefined;
const controllers =
  config.api && api
    ? [
        new CertificateControllers({
          options: options.controllers,
          client: config.api,
          log,
          server: api.server,
          serverCa: api.ca,
        }),
      ]
    : [];
runUntilSignal(log, new CertificatesServer(config, controllers));
