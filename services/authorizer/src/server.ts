// The authorizer server: RBAC objects in memory from informers, the decisions over gRPC (mutual
// TLS, grpc health, metrics), the aggregation of cluster roles and the bootstrap policy, both
// written through the public API. The constructor wires; run() serves until its signal.
//
// Start order (no deadlock with the gateway, which asks this service about every request,
// including the bootstrap writes): listen; sync the informers; answer decisions (masters are
// allowed by the privileged-groups mode without any RBAC object); then reconcile the bootstrap
// policy in the background, retrying until the gateway answers. Readiness of the policy is
// reported as the grpc.health.v1 service `bootstrapPolicyHealthService`, SERVING once it is in;
// the gateway's /readyz includes it (`poststarthook/rbac/bootstrap-roles`), so whoever waits
// for a ready gateway finds the bootstrap roles in place.
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { authorizerProto } from '@orch/proto';
import { servingAddress } from '@orch/component-base/flags';
import {
  bootstrapPolicyHealthService,
  grpcServingChecker,
  startGrpcServer,
} from '@orch/component-base/grpc-server';
import { startOperationalServer } from '@orch/component-base/operational';
import { Deferred, aborted } from '@orch/component-base/run';
import type { Runnable } from '@orch/component-base/run';
import type { Role } from '@orch/apimachinery/auth';
import { reconcilePolicyWithBackoff } from './bootstrap/reconcile-policy.js';
import type { AuthorizerConfig } from './config.js';
import { authorizerService } from './grpc/authorizer-service.js';
import { alwaysAllow, alwaysDeny } from './modes/always.js';
import { mastersGroup, privilegedGroups } from './modes/privileged-groups.js';
import { ClusterRoleAggregator } from './rbac/aggregation.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { InformerSource } from './rbac/informer-source.js';
import type { Authorizer } from './rbac/types.js';
import { union } from './union.js';

export class AuthorizerServer implements Runnable {
  readonly registry: Registry;
  readonly authorizer: Authorizer;
  readonly #config: AuthorizerConfig;
  readonly #source: InformerSource | undefined;
  readonly #aggregator: ClusterRoleAggregator | undefined;
  readonly #latency: Histogram<'rpc' | 'code'>;
  readonly #decisions: Counter<'decision'>;
  readonly #serving = new Deferred<number>();
  #ready = false;

  constructor(config: AuthorizerConfig) {
    this.#config = config;
    const { log, registry, rbac } = config;
    this.registry = registry;
    this.#latency = new Histogram({
      name: 'orch_authorizer_request_duration_seconds',
      help: 'Authorizer request latency by RPC and gRPC code.',
      labelNames: ['rpc', 'code'] as const,
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
      registers: [registry],
    });
    this.#decisions = new Counter({
      name: 'orch_authorizer_decisions_total',
      help: 'Authorization decisions by outcome.',
      labelNames: ['decision'] as const,
      registers: [registry],
    });
    if (rbac) {
      const informerLog = log.child({ component: 'informer' });
      const source = new InformerSource(rbac.storage, rbac.nats, informerLog);
      const aggregator = new ClusterRoleAggregator(
        // The informer holds the decoded JSON of clusterroles.
        () => source.clusterRoles.list() as Role[],
        rbac.api,
        log
      );
      const schedule = (): void => aggregator.schedule();
      source.clusterRoles.addEventHandler({
        onAdd: schedule,
        onUpdate: schedule,
        onDelete: schedule,
      });
      this.#source = source;
      this.#aggregator = aggregator;
      this.authorizer = union(privilegedGroups([mastersGroup]), new RbacAuthorizer(source));
    } else {
      this.authorizer = config.options.mode === 'AlwaysAllow' ? alwaysAllow : alwaysDeny;
    }
  }

  get serving(): Promise<number> {
    return this.#serving.promise;
  }

  async run(signal: AbortSignal): Promise<void> {
    const { log, options, rbac } = this.#config;
    const source = this.#source;
    try {
      const grpc = await startGrpcServer({
        address: servingAddress(options.serving),
        tls: options.serving.tls,
        services: [
          {
            name: 'orch.authz.v1.Authorizer',
            definition: authorizerProto.orch.authz.v1.Authorizer.service,
            implementation: authorizerService(
              this.authorizer,
              { latency: this.#latency, decisions: this.#decisions },
              () => this.#ready,
              () => source?.revisions() ?? {}
            ) as never,
          },
        ],
      });
      grpc.health.setStatus(bootstrapPolicyHealthService, 'NOT_SERVING');
      // Decisions once the caches are synced: a decision on a partial cache could deny wrongly.
      if (source) await source.start();
      this.#ready = true;
      grpc.setServing(true);
      const operational = await startOperationalServer({
        component: 'authorizer',
        options: options.operational,
        registry: this.registry,
        log,
        logLevel: options.logLevel,
        readyz: [grpcServingChecker(grpc)],
        configz: () => options,
      });
      log.info('authorizer serving', { port: grpc.port, mode: options.mode });
      this.#serving.resolve(grpc.port);

      const stopBootstrap = new AbortController();
      const bootstrap = (async () => {
        if (rbac && options.bootstrapPolicy) {
          if (!(await reconcilePolicyWithBackoff(rbac.api, log, stopBootstrap.signal))) return;
          log.info('bootstrap policy in place');
        }
        this.#aggregator?.schedule();
        grpc.health.setStatus(bootstrapPolicyHealthService, 'SERVING');
      })();

      await aborted(signal);
      grpc.setServing(false);
      grpc.health.setStatus(bootstrapPolicyHealthService, 'NOT_SERVING');
      stopBootstrap.abort();
      rbac?.api.close(); // ends a bootstrap request in flight rather than wait for its timeout
      await bootstrap;
      this.#aggregator?.stop();
      source?.stop();
      await grpc.stop();
      await operational?.close();
    } catch (err) {
      this.#serving.reject(err);
      throw err;
    } finally {
      await this.#config.close();
    }
  }
}
