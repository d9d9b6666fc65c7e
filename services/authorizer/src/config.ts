// The authorizer's dependencies, built from its completed options: in RBAC mode the storage
// client and NATS connection its informers read through, and the client of the public API it
// writes the bootstrap policy and aggregated roles with; the metrics registry. Nothing listens
// yet (server.ts wires, run() serves).
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import type { Registry } from 'prom-client';
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';
import { StorageClient } from '@orch/apimachinery/grpc';
import { clientCredentials } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import { newRegistry } from '@orch/component-base/metrics';
import { registerFeatureMetrics } from '@orch/component-base/featuregate';
import type { AuthorizationMode, CompletedAuthorizerOptions } from './options.js';

export interface AuthorizerConfig {
  options: CompletedAuthorizerOptions & { mode: AuthorizationMode };
  log: Logger;
  registry: Registry;
  /** RBAC mode only: what the informers and the API writes go through. */
  rbac?: { storage: StorageClient; nats: NatsConnection; api: RestClient };
  close(): Promise<void>;
}

export async function newAuthorizerConfig(
  options: CompletedAuthorizerOptions & { mode: AuthorizationMode },
  log: Logger
): Promise<AuthorizerConfig> {
  const registry = newRegistry('authorizer');
  registerFeatureMetrics(registry, options.featureGates.gate);
  if (options.mode !== 'RBAC') return { options, log, registry, close: async () => undefined };
  const storage = new StorageClient({
    address: options.storageAddress,
    credentials: clientCredentials(options.serving.tls),
  });
  const nats = await connect({
    servers: options.natsUrls,
    maxReconnectAttempts: -1,
    name: 'orch-authorizer',
  });
  const api = new RestClient(loadKubeconfig(options.kubeconfig ?? ''));
  return {
    options,
    log,
    registry,
    rbac: { storage, nats, api },
    async close() {
      api.close();
      await nats.drain().catch(() => undefined);
      storage.close();
    },
  };
}
