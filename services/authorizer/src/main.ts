#!/usr/bin/env node
// orch-authorizer: authorization decisions (RBAC) over gRPC.
import { createLogger } from '@orch/component-base/logs';
import { onShutdown } from '@orch/component-base/shutdown';
import { authorizerConfig } from './options.js';
import { startAuthorizerServer } from './server.js';

const log = createLogger('authorizer');
const server = await startAuthorizerServer(authorizerConfig(), log);
onShutdown(log, [() => server.stop()]);
