// The gateway server: wires storage, NATS, the fan-out, the stores and the handler chain, and
// serves them over HTTPS.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { isAlreadyExists } from '@orch/apimachinery/errors';
import { AuthorizerClient, StorageClient } from '@orch/apimachinery/grpc';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { builtinSchemaModel } from '@orch/apimachinery/schema-model';
import { clientCredentials } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import { alwaysAllow, alwaysDeny } from './authz/authorizer.js';
import type { Authorizer } from './authz/authorizer.js';
import { CachingAuthorizer, PolicyWatch } from './authz/caching-authorizer.js';
import { escalationCheck } from './authz/escalation.js';
import { GrpcAuthorizer } from './authz/grpc-authorizer.js';
import type { RuleReviewer } from './authz/grpc-authorizer.js';
import { buildAuthentication } from './authn/build-authentication.js';
import { installDiscovery, defaultVersionInfo } from './endpoints/discovery.js';
import { resourceHandler } from './endpoints/installer.js';
import { installOpenApi } from './endpoints/openapi.js';
import { fileAuditSink } from './filters/with-audit.js';
import { buildHandlerChain } from './handler-chain.js';
import { healthCheckerFunc, installHealthChecks } from './health/healthz.js';
import { ShutdownState } from './health/shutdown-state.js';
import { GatewayMetrics } from './metrics.js';
import type { GatewayConfig } from './options.js';
import { NamespaceInformer } from './registry/namespace-informer.js';
import { validationChain } from './registry/admission-attributes.js';
import { namespaceLifecycle, systemNamespaces } from './registry/namespace-lifecycle.js';
import { buildRestStorage, buildStores } from './registry/rest-storage.js';
import type { Store } from './registry/store.js';
import type { FeedHooks } from './watch/type-feed.js';
import { Fanout } from './watch/fanout.js';

export interface GatewayServer {
  port: number;
  server: Server;
  fanout: Fanout;
  stop(): Promise<void>;
}

const publicPaths = /^\/(healthz|livez|readyz|version)(\/|$)/;

export async function startGatewayServer(config: GatewayConfig, log: Logger, hooks: FeedHooks = {}): Promise<GatewayServer> {
  const registry = new ResourceRegistry(builtinResources);
  // One schema source: the kinds of proto/orch/api compiled once, at start (field validation,
  // the binary envelope, tables, strategic merge patch and OpenAPI read it).
  builtinSchemaModel();
  const rawStorage = new StorageClient({
    address: config.storageAddress,
    credentials: clientCredentials(config.grpcTls),
    timeoutMs: config.storageTimeoutMs,
  });
  const nats: NatsConnection = await connect({ servers: config.natsUrls, maxReconnectAttempts: -1, name: 'orch-gateway' });
  let fanout: Fanout | undefined;
  const metrics = new GatewayMetrics(() => fanout?.openWatchCount() ?? 0);
  const storage = metrics.timeStorage(rawStorage);
  fanout = new Fanout(nats, storage, log, {
    ...hooks,
    onFanout: (n) => {
      metrics.watchEvents.inc(n);
      hooks.onFanout?.(n);
    },
    onGapRepaired: (n) => {
      metrics.gapsRepaired.inc();
      hooks.onGapRepaired?.(n);
    },
  });
  const stores = buildStores(registry, storage, fanout);
  const namespaces = stores.get('/v1/namespaces');
  if (!namespaces) throw new Error('namespaces are not registered');
  const informer = new NamespaceInformer(namespaces, fanout, log);
  const authz = authorizationFor(config, metrics);
  const policyWatch = authz.cache
    ? new PolicyWatch(authz.cache, policyKinds(registry), fanout, () => rawStorage.currentRevision(), log.child({ component: 'authorization-cache' }))
    : undefined;
  const authn = buildAuthentication(config.authn, stores, fanout, log);
  const audit = config.authn.auditLogPath ? fileAuditSink(config.authn.auditLogPath) : undefined;
  const shutdown = new ShutdownState();

  const checks = {
    etcd: healthCheckerFunc('etcd', async () => {
      await rawStorage.currentRevision();
    }),
    nats: healthCheckerFunc('nats', () => {
      if (nats.isClosed()) throw new Error('NATS connection closed');
    }),
    informers: healthCheckerFunc('informer-sync', () => {
      if (!informer.synced) throw new Error('namespace informer not synced');
    }),
  };

  const app = buildHandlerChain({
    log,
    authenticators: authn.authenticators,
    authorizer: authz.authorizer,
    anonymousAuth: config.authn.anonymous,
    ...(audit ? { audit } : {}),
    // Under RBAC (or AlwaysDeny) the authorizer decides for anonymous users too (the bootstrap
    // system:public-info-viewer role opens health and version); AlwaysAllow would open everything.
    publicPath: config.authorizationMode === 'AlwaysAllow' ? (p) => publicPaths.test(p) : () => true,
    maxBodyBytes: config.maxBodyBytes,
    maxReadOnlyInFlight: config.maxReadOnlyInFlight,
    maxMutatingInFlight: config.maxMutatingInFlight,
    metrics: metrics.filter(),
    installNonResource: (a) => {
      installHealthChecks(a, '/healthz', [checks.etcd, checks.nats], log);
      installHealthChecks(a, '/livez', [shutdown.livezGracePeriod(config.livezGraceMs)(checks.etcd)], log);
      installHealthChecks(a, '/readyz', [checks.etcd, checks.nats, checks.informers, shutdown.readyzCheck], log);
      a.get('/metrics', (_req, res) => {
        metrics.registry.metrics().then(
          (body) => res.type(metrics.registry.contentType).send(body),
          (err: unknown) => res.status(500).send(String(err))
        );
      });
      installDiscovery(a, registry, defaultVersionInfo());
      installOpenApi(a, registry);
    },
    resources: resourceHandler({
      registry,
      rest: buildRestStorage({ stores, ...authz, more: authn.rest }),
      validation: validationChain(
        namespaceLifecycle(registry, namespaces, informer),
        escalationCheck({
          ...authz,
          roles: stores.get('rbac.authorization.orch.io/v1/roles'),
          clusterRoles: stores.get('rbac.authorization.orch.io/v1/clusterroles'),
        })
      ),
      maxWatchSeconds: config.maxWatchSeconds,
    }),
  });

  const tls = config.tls!;
  const server = createServer(
    {
      cert: readFileSync(tls.certFile),
      key: readFileSync(tls.keyFile),
      ca: [readFileSync(tls.caFile, 'utf8'), ...authn.extraClientCas],
      requestCert: true,
      rejectUnauthorized: false, // an unverified client is anonymous, answered 401 by authentication
    },
    app
  );
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.address, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;

  void informer.start();
  void policyWatch?.start();
  authn.start();
  void ensureSystemNamespaces(namespaces, log);
  log.info('gateway serving', { address: `https://${config.address}:${port}` });

  return {
    port,
    server,
    fanout,
    async stop() {
      // readyz fails first; requests in flight finish; then the listener closes.
      await shutdown.beginShutdown(config.shutdownDelayMs);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      });
      informer.stop();
      policyWatch?.stop();
      authn.stop();
      await audit?.close();
      fanout?.stop();
      await nats.drain().catch(() => undefined);
      rawStorage.close();
      authz.close();
    },
  };
}

/**
 * The authorizer of --authorization-mode: the authorizer service over gRPC, its decisions cached
 * (every decision of the gateway, reviews included, goes through the cache, as k8s's webhook
 * authorizer does), or a fixed answer.
 */
function authorizationFor(
  config: GatewayConfig,
  metrics: GatewayMetrics
): { authorizer: Authorizer; reviewer: RuleReviewer; cache?: CachingAuthorizer; close(): void } {
  if (config.authorizationMode === 'RBAC') {
    const client = new AuthorizerClient({ address: config.authorizerAddress, credentials: clientCredentials(config.grpcTls) });
    const grpc = new GrpcAuthorizer(client);
    const cache = new CachingAuthorizer(grpc, {
      ...config.authorizationCache,
      onHit: () => metrics.authorizationCache.inc({ result: 'hit' }),
      onMiss: () => metrics.authorizationCache.inc({ result: 'miss' }),
    });
    return { authorizer: cache, reviewer: grpc, cache, close: () => client.close() };
  }
  const allow = config.authorizationMode === 'AlwaysAllow';
  const everything = { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false, evaluationError: '' };
  const nothing = { resourceRules: [], nonResourceRules: [], incomplete: false, evaluationError: '' };
  return {
    authorizer: allow ? alwaysAllow : alwaysDeny,
    reviewer: { rulesReview: async () => (allow ? everything : nothing) },
    close: () => undefined,
  };
}

/** The kinds the RBAC decisions stand on. */
function policyKinds(registry: ResourceRegistry): ResourceDefinition[] {
  return registry.all().filter((d) => d.group === 'rbac.authorization.orch.io' && d.version === 'v1');
}

/** default, orch-system and orch-public exist from the start (k8s system namespaces controller). */
async function ensureSystemNamespaces(namespaces: Store, log: Logger): Promise<void> {
  for (const name of systemNamespaces) {
    for (let attempt = 0; ; attempt++) {
      try {
        const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
        await namespaces.create({}, namespace, { dryRun: false });
        log.info('created system namespace', { name });
        break;
      } catch (err) {
        if (isAlreadyExists(err)) break;
        if (attempt > 60) {
          log.error('could not create system namespace', { name, err });
          break;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
}
