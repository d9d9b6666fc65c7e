// The admission service's dependencies, built from its completed options: the storage client
// and NATS connection its informers read through, the metrics registry, the plugin factories,
// each plugin's configuration (from --admission-control-config-file) and the matchConditions
// compiler of the webhooks (CEL). Nothing listens yet (server.ts wires, run() serves).
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import type { Registry } from 'prom-client';
import { StorageClient } from '@orch/apimachinery/grpc';
import { clientCredentials } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import { newRegistry } from '@orch/component-base/metrics';
import { registerFeatureMetrics } from '@orch/component-base/featuregate';
import {
  pluginConfigurations,
  readAdmissionConfiguration,
} from './admission-configuration/index.js';
import type { MatchConditionsCompiler } from './interfaces.js';
import type { CompletedAdmissionOptions } from './options.js';
import { builtinPluginFactories } from './plugins.js';
import type { PluginFactories } from './plugins.js';
import { compileMatchConditions } from './policy/index.js';

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
  const factories = extras.factories ?? builtinPluginFactories;
  // Read before anything connects: a bad file stops the start with every error in it.
  const file = options.admissionControlConfigFile;
  const pluginConfigs =
    extras.pluginConfigs ??
    (file
      ? pluginConfigurations(await readAdmissionConfiguration(file, Object.keys(factories)))
      : new Map<string, unknown>());
  const registry = newRegistry('admission');
  registerFeatureMetrics(registry, options.featureGates.gate);
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
    factories,
    pluginConfigs,
    matchConditions: extras.matchConditions ?? compileMatchConditions,
    async close() {
      await nats.drain().catch(() => undefined);
      storage.close();
    },
  };
}
