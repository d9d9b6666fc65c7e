#!/usr/bin/env node
// orch-gateway: the HTTPS front of the control plane.
import { createLogger } from '@orch/component-base/logs';
import { onShutdown } from '@orch/component-base/shutdown';
import { gatewayConfig } from './options.js';
import { startGatewayServer } from './server.js';

const log = createLogger('gateway');
const server = await startGatewayServer(gatewayConfig(), log);
onShutdown(log, [() => server.stop()]);
