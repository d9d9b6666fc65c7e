// The admission service's dependencies, built from its completed options: the storage client
// and NATS connection its informers read through, the metrics registry, the plugin factories,
// each plugin's configuration (from --admission-control-config-file once its parser is wired:
// empty until then) and the matchConditions compiler of the webhooks. Nothing listens yet
// (server.ts wires, run() serves).
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import type { Registry } from 'prom-client';
import { fieldInvalid } from '@orch/apimachinery/errors';
import { StorageClient } from '@orch/apimachinery/grpc';
import { clientCredentials } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import { newRegistry } from '@orch/component-base/metrics';
import type { MatchConditionsCompiler } from './interfaces.js';
import type { CompletedAdmissionOptions } from './options.js';
import { builtinPluginFactories } from './plugins.js';
import type { PluginFactories } from './plugins.js';

export interface AdmissionConfig {
  options: CompletedAdmissionOptions;
  log: Logger;
  registry: Registry;
  storage: StorageClient;
  nats: NatsConnection;
  /** The plugins by name; every one is built at start. */
  factories: PluginFactories;
  /** Plugin name → its parsed configuration (PluginDeps.config). */
  pluginConfigs: ReadonlyMap<string, unknown>;
  matchConditions: MatchConditionsCompiler;
  close(): Promise<void>;
}

/**
 * The compiler used when none is configured: every matchCondition is refused with a field error
 * (a webhook with matchConditions is then invalid rather than matched wrongly).
 */
export const noMatchConditionsCompiler: MatchConditionsCompiler = (conditions, path) => ({
  conditions: {
    evaluate: async () => ({
      matches: false,
      error: 'matchConditions cannot be evaluated: no expression compiler is configured',
    }),
  },
  errors: conditions.map((c, i) =>
    fieldInvalid(
      `${path}[${i}].expression`,
      c.expression,
      'no expression compiler is configured in the admission service'
    )
  ),
});

export interface AdmissionConfigExtras {
  factories?: PluginFactories;
  pluginConfigs?: ReadonlyMap<string, unknown>;
  matchConditions?: MatchConditionsCompiler;
}

export async function newAdmissionConfig(
  options: CompletedAdmissionOptions,
  log: Logger,
  extras: AdmissionConfigExtras = {}
): Promise<AdmissionConfig> {
  const registry = newRegistry('admission');
  const storage = new StorageClient({
    address: options.storageAddress,
    credentials: clientCredentials(options.serving.tls),
  });
  const nats = await connect({
    servers: options.natsUrls,
    maxReconnectAttempts: -1,
    name: 'orch-admission',
  });
  return {
    options,
    log,
    registry,
    storage,
    nats,
    factories: extras.factories ?? builtinPluginFactories,
    pluginConfigs: extras.pluginConfigs ?? new Map(),
    matchConditions: extras.matchConditions ?? noMatchConditionsCompiler,
    async close() {
      await nats.drain().catch(() => undefined);
      storage.close();
    },
  };
}
