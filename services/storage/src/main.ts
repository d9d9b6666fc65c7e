#!/usr/bin/env node
// orch-storage: the only etcd client of the suite.
import { createLogger } from '@orch/component-base/logs';
import { onShutdown } from '@orch/component-base/shutdown';
import { storageConfig } from './options.js';
import { startStorageServer } from './server.js';

const log = createLogger('storage');
const server = await startStorageServer(storageConfig(), log);
onShutdown(log, [() => server.stop()]);
