#!/usr/bin/env node
// orch-authorizer: authorization decisions (RBAC) over gRPC.
import { optionsOrExit } from '@orch/component-base/flags';
import { createLogger } from '@orch/component-base/logs';
import { setShowHiddenMetrics } from '@orch/component-base/metrics';
import { runUntilSignal } from '@orch/component-base/run';
import { newAuthorizerConfig } from './config.js';
import { authorizerOptions } from './options.js';
import { AuthorizerServer } from './server.js';

const options = optionsOrExit(() => authorizerOptions());
const log = createLogger('authorizer', options.logLevel);
for (const w of options.featureGates.warnings) log.warn(w);
if (options.showHiddenMetricsForVersion) setShowHiddenMetrics();
runUntilSignal(log, new AuthorizerServer(await newAuthorizerConfig(options, log)));
