#!/usr/bin/env node
// orch-storage: the only etcd client of the suite.
import { optionsOrExit } from '@orch/component-base/flags';
import { createLogger } from '@orch/component-base/logs';
import { setShowHiddenMetrics } from '@orch/component-base/metrics';
import { runUntilSignal } from '@orch/component-base/run';
import { newStorageConfig } from './config.js';
import { storageOptions } from './options.js';
import { StorageServer } from './server.js';

const options = optionsOrExit(() => storageOptions());
const log = createLogger('storage', options.logLevel);
for (const w of options.featureGates.warnings) log.warn(w);
if (options.showHiddenMetricsForVersion) setShowHiddenMetrics();
runUntilSignal(log, new StorageServer(await newStorageConfig(options, log)));
