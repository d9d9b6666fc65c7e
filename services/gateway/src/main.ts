#!/usr/bin/env node
// orch-gateway: the HTTPS front of the control plane.
import { optionsOrExit } from '@orch/component-base/flags';
import { createLogger } from '@orch/component-base/logs';
import { setShowHiddenMetrics } from '@orch/component-base/metrics';
import { runUntilSignal } from '@orch/component-base/run';
import { newGatewayConfig } from './config.js';
import { gatewayOptions } from './options.js';
import { GatewayServer } from './server.js';

const options = optionsOrExit(() => gatewayOptions());
const log = createLogger('gateway', options.logLevel);
for (const w of [...options.featureGates.warnings, ...options.warnings]) log.warn(w);
if (options.showHiddenMetricsForVersion) setShowHiddenMetrics();
runUntilSignal(log, new GatewayServer(await newGatewayConfig(options, log)));
