// The admission server: the service-side admission plugins over gRPC (mutual TLS, grpc
// health, metrics), reading the cluster through informers. The constructor wires; run() builds
// the plugins, listens, syncs the namespaces, then answers (SERVING) until its signal.
import type { Registry } from 'prom-client';
import { admissionProto } from '@orch/proto';
import { servingAddress } from '@orch/component-base/flags';
import { grpcServingChecker, startGrpcServer } from '@orch/component-base/grpc-server';
import { startOperationalServer } from '@orch/component-base/operational';
import { Deferred, aborted } from '@orch/component-base/run';
import type { Runnable } from '@orch/component-base/run';
import type { AdmissionConfig } from './config.js';
import { admissionService, newAdmissionMetrics } from './grpc/admission-service.js';
import type { AdmissionMetrics } from './grpc/admission-service.js';
import { InformerListers } from './listers.js';
import { newPlugins, servedPlugins } from './plugins.js';
import {
  pluginName as podSecurityPluginName,
  podSecurityScopeOf,
} from './pod-security/pod-security.js';
import { pluginName as resourceQuotaPluginName } from './resource-quota/resource-quota.js';
import { hasLimitedResources } from './resource-quota/resource-quota-configuration.js';

export class AdmissionServer implements Runnable {
  readonly registry: Registry;
  readonly listers: InformerListers;
  readonly #config: AdmissionConfig;
  readonly #metrics: AdmissionMetrics;
  readonly #serving = new Deferred<number>();
  #ready = false;

  constructor(config: AdmissionConfig) {
    this.#config = config;
    this.registry = config.registry;
    this.#metrics = newAdmissionMetrics(config.registry);
    this.listers = new InformerListers(
      config.storage,
      config.nats,
      config.log.child({ component: 'informer' })
    );
  }

  /** The port once serving. */
  get serving(): Promise<number> {
    return this.#serving.promise;
  }

  async run(signal: AbortSignal): Promise<void> {
    const { log, options } = this.#config;
    try {
      const plugins = newPlugins(
        this.#config.factories,
        {
          listers: this.listers,
          registry: this.registry,
          log,
          matchConditions: this.#config.matchConditions,
          storage: this.#config.storage,
          settings: {
            defaultNotReadyTolerationSeconds: options.defaultNotReadyTolerationSeconds,
            defaultUnreachableTolerationSeconds: options.defaultUnreachableTolerationSeconds,
          },
        },
        this.#config.pluginConfigs
      );
      const served = servedPlugins(this.#config.factories);
      const grpc = await startGrpcServer({
        address: servingAddress(options.serving),
        tls: options.serving.tls,
        services: [
          {
            name: 'orch.admission.v1.Admission',
            definition: admissionProto.orch.admission.v1.Admission.service,
            implementation: admissionService({
              plugins,
              served,
              quotaLimitedResources: hasLimitedResources(
                this.#config.pluginConfigs.get(resourceQuotaPluginName)
              ),
              podSecurity: served.includes(podSecurityPluginName)
                ? podSecurityScopeOf(this.#config.pluginConfigs.get(podSecurityPluginName))
                : undefined,
              metrics: this.#metrics,
              log,
              ready: () => this.#ready,
              stopping: signal,
            }) as never,
          },
        ],
      });
      // Answers once the namespaces are synced: a plugin reading a partial cache could decide wrongly.
      await this.listers.start();
      this.#ready = true;
      grpc.setServing(true);
      const operational = await startOperationalServer({
        component: 'admission',
        options: options.operational,
        registry: this.registry,
        log,
        logLevel: options.logLevel,
        readyz: [grpcServingChecker(grpc)],
        configz: () => options,
      });
      log.info('admission serving', { port: grpc.port, plugins: [...plugins.keys()] });
      this.#serving.resolve(grpc.port);

      await aborted(signal);
      grpc.setServing(false);
      await grpc.stop();
      await operational?.close();
    } catch (err) {
      this.#serving.reject(err);
      throw err;
    } finally {
      this.listers.stop();
      await this.#config.close();
    }
  }
}
