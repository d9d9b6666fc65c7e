// The gateway server: the stores and the handler chain wired over the config's clients; run()
// serves them over HTTPS until its signal, then stops gracefully (/readyz fails first).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { ResourceDefinition, ResourceRegistry } from '@orch/apimachinery/registry';
import { Deferred, aborted } from '@orch/component-base/run';
import type { Runnable } from '@orch/component-base/run';
import { newAdmissionChain } from './admission/chain.js';
import { namespaceLifecycle } from './admission/namespace-lifecycle/plugin.js';
import { rbacEscalationPrevention } from './admission/rbac-escalation/plugin.js';
import { servicePlugins } from './admission/service/service-plugins.js';
import { PolicyWatch } from './authz/caching-authorizer.js';
import { buildAuthentication } from './authn/build-authentication.js';
import type { GatewayConfig } from './config.js';
import { installDiscovery, defaultVersionInfo } from './endpoints/discovery.js';
import { resourceHandler } from './endpoints/installer.js';
import { installOpenApi } from './endpoints/openapi.js';
import { fileAuditSink } from './filters/with-audit.js';
import { buildHandlerChain } from './handler-chain.js';
import { admissionServiceCheck } from './health/admission-service-check.js';
import { bootstrapPolicyCheck } from './health/bootstrap-policy-check.js';
import { healthCheckerFunc, installHealthChecks } from './health/healthz.js';
import { ShutdownState } from './health/shutdown-state.js';
import { ensureSystemNamespaces } from './registry/ensure-system-namespaces.js';
import { NamespaceInformer } from './registry/namespace-informer.js';
import { buildRestStorage, buildStores } from './registry/rest-storage.js';
import type { Store } from './registry/store.js';
import type { Cachers } from './cache/cachers.js';

const publicPaths = /^\/(healthz|livez|readyz|version)(\/|$)/;

export class GatewayServer implements Runnable {
  readonly server: Server;
  readonly cachers: Cachers;
  readonly #config: GatewayConfig;
  readonly #informer: NamespaceInformer;
  readonly #policyWatch: PolicyWatch | undefined;
  readonly #authn: ReturnType<typeof buildAuthentication>;
  readonly #audit: ReturnType<typeof fileAuditSink> | undefined;
  readonly #namespaces: Store;
  readonly #shutdown = new ShutdownState();
  readonly #serving = new Deferred<number>();

  constructor(config: GatewayConfig) {
    this.#config = config;
    const { options, log, registry, storage, rawStorage, nats, cachers, metrics, authz } = config;
    this.cachers = cachers;

    // REST storage: a Store per stored kind, the subresources' and virtual kinds' REST objects,
    // the resource handler.
    const stores = buildStores(registry, storage, cachers);
    const namespaces = stores.get('/v1/namespaces');
    if (!namespaces) throw new Error('namespaces are not registered');
    const informer = new NamespaceInformer(namespaces, cachers, log);
    const authn = buildAuthentication(options.authn, stores, cachers, log);
    const resources = resourceHandler({
      registry,
      rest: buildRestStorage({ stores, ...authz, more: authn.rest }),
      admission: newAdmissionChain(
        {
          NamespaceLifecycle: () => namespaceLifecycle(registry, namespaces, informer),
          RBACEscalationPrevention: () =>
            rbacEscalationPrevention({
              ...authz,
              roles: stores.get('rbac.authorization.orch.io/v1/roles'),
              clusterRoles: stores.get('rbac.authorization.orch.io/v1/clusterroles'),
            }),
        },
        options.admissionPlugins,
        config.admission
          ? (names) =>
              servicePlugins(names, config.admission!.client, log.child({ component: 'admission' }))
          : undefined
      ),
      authorizer: authz.authorizer,
      maxWatchSeconds: options.maxWatchSeconds,
    });
    // end of REST storage

    this.#namespaces = namespaces;
    this.#informer = informer;
    this.#authn = authn;
    this.#policyWatch = authz.cache
      ? new PolicyWatch(
          authz.cache,
          policyKinds(registry),
          cachers,
          log.child({ component: 'authorization-cache' })
        )
      : undefined;
    const auditPath = options.authn.auditLogPath;
    this.#audit = auditPath ? fileAuditSink(auditPath) : undefined;

    const shutdown = this.#shutdown;
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
      // k8s: the watch caches' readiness (a cache not synced yet, named).
      watchCaches: healthCheckerFunc('watch-cache-sync', () => {
        const pending = cachers.notSynced();
        if (pending.length > 0) throw new Error(`watch caches not synced: ${pending.join(', ')}`);
      }),
    };
    const readyz = [checks.etcd, checks.nats, checks.informers, checks.watchCaches];
    if (authz.health) readyz.push(bootstrapPolicyCheck(authz.health));
    if (config.admission) readyz.push(admissionServiceCheck(config.admission.health));

    const app = buildHandlerChain({
      log,
      authenticators: authn.authenticators,
      authorizer: authz.authorizer,
      anonymousAuth: options.authn.anonymous,
      ...(this.#audit ? { audit: this.#audit } : {}),
      // Under RBAC (or AlwaysDeny) the authorizer decides for anonymous users too (the bootstrap
      // system:public-info-viewer role opens health and version); AlwaysAllow would open
      // everything.
      publicPath:
        options.authorizationMode === 'AlwaysAllow' ? (p) => publicPaths.test(p) : () => true,
      maxBodyBytes: options.maxBodyBytes,
      maxReadOnlyInFlight: options.maxReadOnlyInFlight,
      maxMutatingInFlight: options.maxMutatingInFlight,
      metrics: metrics.filter(),
      installNonResource: (a) => {
        installHealthChecks(a, '/healthz', [checks.etcd, checks.nats], log);
        const livez = shutdown.livezGracePeriod(options.livezGraceMs)(checks.etcd);
        installHealthChecks(a, '/livez', [livez], log);
        installHealthChecks(a, '/readyz', [...readyz, shutdown.readyzCheck], log);
        a.get('/metrics', (_req, res) => {
          metrics.registry.metrics().then(
            (body) => res.type(metrics.registry.contentType).send(body),
            (err: unknown) => res.status(500).send(String(err))
          );
        });
        installDiscovery(a, registry, defaultVersionInfo());
        installOpenApi(a, registry);
      },
      resources,
    });

    const tls = options.tls!;
    this.server = createServer(
      {
        cert: readFileSync(tls.certFile),
        key: readFileSync(tls.keyFile),
        ca: [readFileSync(tls.caFile, 'utf8'), ...authn.extraClientCas],
        requestCert: true,
        // An unverified client is anonymous, answered 401 by authentication.
        rejectUnauthorized: false,
      },
      app
    );
    this.server.keepAliveTimeout = 65_000;
  }

  get serving(): Promise<number> {
    return this.#serving.promise;
  }

  async run(signal: AbortSignal): Promise<void> {
    const { options, log } = this.#config;
    const server = this.server;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.address, () => resolve());
      });
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      void this.#informer.start();
      void this.#policyWatch?.start();
      this.#authn.start();
      void ensureSystemNamespaces(this.#namespaces, log, signal);
      log.info('gateway serving', { address: `https://${options.address}:${port}` });
      this.#serving.resolve(port);

      await aborted(signal);
      // readyz fails first; requests in flight finish; then the listener closes.
      await this.#shutdown.beginShutdown(options.shutdownDelayMs);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      });
      this.#informer.stop();
      this.#policyWatch?.stop();
      this.#authn.stop();
      await this.#audit?.close();
    } catch (err) {
      this.#serving.reject(err);
      throw err;
    } finally {
      await this.#config.close();
    }
  }
}

/** The kinds the RBAC decisions stand on. */
function policyKinds(registry: ResourceRegistry): ResourceDefinition[] {
  return registry
    .all()
    .filter((d) => d.group === 'rbac.authorization.orch.io' && d.version === 'v1');
}
