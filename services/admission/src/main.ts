#!/usr/bin/env node
// orch-admission: the service-side admission plugins (webhooks, policies, image policy, ...) over gRPC.
import { optionsOrExit } from '@orch/component-base/flags';
import { createLogger } from '@orch/component-base/logs';
import { setShowHiddenMetrics } from '@orch/component-base/metrics';
import { runUntilSignal } from '@orch/component-base/run';
import { newAdmissionConfig } from './config.js';
import { admissionOptions } from './options.js';
import { AdmissionServer } from './server.js';

const options = optionsOrExit(() => admissionOptions());
const log = createLogger('admission', options.logLevel);
for (const w of options.featureGates.warnings) log.warn(w);
if (options.showHiddenMetricsForVersion) setShowHiddenMetrics();
runUntilSignal(log, new AdmissionServer(await newAdmissionConfig(options, log)));
