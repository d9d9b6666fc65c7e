// The gateway server: the stores and the handler chain wired over the config's clients; run()
// serves them over HTTPS, HTTP/2 and HTTP/1.1 on one port chosen by ALPN, until its signal, then
// stops gracefully (/readyz fails first; HTTP/2 sessions get GOAWAY) (k8s secure_serving.go).
import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import { createSecureServer } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  Http2SecureServer,
  Http2ServerRequest,
  ServerHttp2Session,
  ServerHttp2Stream,
} from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ResourceDefinition, ResourceRegistry } from '@orch/apimachinery/registry';
import { Deferred, aborted } from '@orch/component-base/run';
import type { Runnable } from '@orch/component-base/run';
import { deprecatedPlugins } from '@orch/apimachinery/admission';
import { newAdmissionChain } from './admission/chain.js';
import type { GatewayPluginDeps } from './admission/interfaces.js';
import { newGatewayPlugins } from './admission/plugins.js';
import { checkServedPlugins } from './admission/served-plugins.js';
import { servicePlugins } from './admission/service/service-plugins.js';
import { cachedScopeSources, dynamicAdmissionScope } from './admission/service/dynamic-scope.js';
import { certificatePlugins } from './admission/certificates/certificate-plugins.js';
import { PolicyWatch } from './authz/caching-authorizer.js';
import { buildAuthentication } from './authn/build-authentication.js';
import type { GatewayConfig } from './config.js';
import { defaultVersionInfo } from './endpoints/discovery.js';
import { installAggregatedDiscovery } from './endpoints/aggregated-discovery.js';
import { resourceHandler } from './endpoints/installer.js';
import { installOpenApi } from './endpoints/install-openapi.js';
import { auditPipeline } from './audit/setup.js';
import type { AuditPipeline } from './audit/setup.js';
import { installDebug } from './endpoints/debug.js';
import { buildHandlerChain } from './handler-chain.js';
import { withAggregation } from './aggregator/proxy.js';
import { cacherLookups } from './aggregator/lookups.js';
import { AvailableConditionController } from './aggregator/available-controller.js';
import { ExtensionDiscovery } from './aggregator/discovery.js';
import { ProxyTransport } from './registry/core/proxy-transport.js';
import { requestListener, upgradeListener } from './http/handler.js';
import {
  admissionServiceCheck,
  authorizerServiceCheck,
  certificatesServiceCheck,
} from './health/service-check.js';
import { bootstrapPolicyCheck } from './health/bootstrap-policy-check.js';
import { healthCheckerFunc, installHealthChecks } from './health/healthz.js';
import { ShutdownState } from './health/shutdown-state.js';
import { KubeletClient } from './registry/core/nodes/kubelet-client.js';
import { ensureKubernetesService } from './registry/core/services/ensure-kubernetes-service.js';
import {
  LeaseEndpointReconciler,
  advertiseAddress,
} from './registry/core/endpoints/lease-endpoint-reconciler.js';
import type { EndpointStores } from './registry/core/endpoints/lease-endpoint-reconciler.js';
import { ensureSystemNamespaces } from './registry/core/namespaces/ensure-system-namespaces.js';
import { postStartHookCheck } from './health/post-start-hook-check.js';
import { ensureLocalAPIServices } from './registry/apiregistration/apiservices/autoregister.js';
import { ensureSystemPriorityClasses } from './registry/scheduling/priorityclasses/ensure-system-priority-classes.js';
import { NamespaceInformer } from './registry/core/namespaces/namespace-informer.js';
import { CustomResourceServing } from './registry/apiextensions/customresources/custom-resource-serving.js';
import { authenticationRestStorage } from './registry/authentication/authentication-rest-storage.js';
import { buildRestStorage, buildStores } from './registry/rest-storage.js';
import { restStorageProviders } from './rest-storage-providers.js';
import { priorityAndFairness } from './priority-and-fairness.js';
import type { ApfConfigController } from './flowcontrol/config-controller.js';
import type { FleetSharing } from './flowcontrol/fleet-sharing.js';
import type { Store } from './registry/store.js';
import type { Cachers } from './cache/cachers.js';

const publicPaths = /^\/(healthz|livez|readyz|version)(\/|$)/;

/** How long requests in flight may run on after shutdown began before their connections are cut. */
const shutdownGraceMs = 5000;

export class GatewayServer implements Runnable {
  readonly server: Http2SecureServer;
  readonly cachers: Cachers;
  readonly #config: GatewayConfig;
  readonly #informer: NamespaceInformer;
  readonly #customResources: CustomResourceServing;
  readonly #policyWatch: PolicyWatch | undefined;
  readonly #startAggregator: (() => void) | undefined;
  /** The Available condition of the APIServices that name a service. */
  readonly #availability: AvailableConditionController | undefined;
  /** The discovery of the extension servers' groups, merged into the gateway's. */
  readonly #extensionDiscovery: ExtensionDiscovery | undefined;
  readonly #startAdmissionScope: (() => void) | undefined;
  readonly #authn: ReturnType<typeof buildAuthentication>;
  readonly #audit: AuditPipeline | undefined;
  /** The client of the node agents (pods/log, nodes/proxy). */
  readonly #kubelet: KubeletClient;
  /** The client of pods and service endpoints (pods/proxy, services/proxy). */
  readonly #proxyTransport: ProxyTransport;
  readonly #namespaces: Store;
  readonly #services: Store | undefined;
  readonly #priorityClasses: Store | undefined;
  readonly #endpointStores: EndpointStores | undefined;
  /** --enable-priority-and-fairness: the config controller feeding the filter's priority levels. */
  readonly #apfConfig: ApfConfigController | undefined;
  readonly #apfFleet: FleetSharing | undefined;
  /** The objects that exist from the start are created (each a /readyz post-start hook check). */
  #systemNamespacesCreated = false;
  #systemPriorityClassesCreated = false;
  /** The local APIServices of the built-in group versions (upstream's autoregister). */
  readonly #autoregister: ((signal: AbortSignal) => Promise<boolean>) | undefined;
  #localAPIServicesAvailable = false;
  readonly #shutdown = new ShutdownState();
  readonly #serving = new Deferred<number>();
  /** Every open connection, by protocol: HTTP/2 sessions and all TLS sockets (for shutdown). */
  readonly #sessions = new Set<ServerHttp2Session>();
  readonly #sockets = new Set<TLSSocket>();
  /** Requests in flight on each HTTP/1.1 connection: one without any is idle, closed at shutdown. */
  readonly #http1InFlight = new WeakMap<Socket, number>();
  /** Aborted when shutdown begins: open watches end. */
  readonly #shuttingDown = new AbortController();

  constructor(config: GatewayConfig) {
    this.#config = config;
    const { options, log, registry, storage, rawStorage, nats, cachers, metrics, authz } = config;
    this.cachers = cachers;

    // REST storage: a Store per stored kind, the subresources' and virtual kinds' REST objects,
    // the resource handler.
    this.#kubelet = new KubeletClient(options.kubeletClient);
    this.#proxyTransport = new ProxyTransport(options.proxyClient);
    const providers = restStorageProviders({
      serviceRanges: options.serviceRanges,
      kubeletClient: this.#kubelet,
      proxyTransport: this.#proxyTransport,
      onReleaseError: (err) =>
        log.warn('a Service IP or node port could not be released', { err: String(err) }),
    });
    const stores = buildStores(registry, providers, { storage, cachers });
    const namespaces = stores.get('/v1/namespaces');
    if (!namespaces) throw new Error('namespaces are not registered');
    const informer = new NamespaceInformer(namespaces, cachers, log);
    const authn = buildAuthentication(options.authn, stores, cachers, log);
    const more = authenticationRestStorage(authn, stores);
    const rest = buildRestStorage({ registry, providers, stores, ...authz, more });
    // Custom resources: each Established CRD's served versions join the registry and `rest`.
    const customResources = new CustomResourceServing({
      registry,
      rest,
      storage,
      cachers,
      log: log.child({ component: 'custom-resources' }),
      webhookServiceAddresses: options.webhookServiceAddresses,
    });
    // What the service's webhook, policy and quota plugins may act on, from the gateway's caches.
    const admissionService = config.admission;
    const scopeSources = admissionService
      ? cachedScopeSources(registry, cachers, admissionService.client)
      : undefined;
    const dynamicScope = scopeSources ? dynamicAdmissionScope(scopeSources.sources) : undefined;
    const gatewayPlugins = newGatewayPlugins();
    const pluginDeps: GatewayPluginDeps = {
      registry,
      namespaces,
      namespaceCache: informer,
      authorizer: authz.authorizer,
      reviewer: authz.reviewer,
      roles: stores.get('rbac.authorization.orch.io/v1/roles'),
      clusterRoles: stores.get('rbac.authorization.orch.io/v1/clusterroles'),
    };
    const resources = resourceHandler({
      registry,
      deprecatedApis: metrics.requestedDeprecatedApis,
      rest,
      admission: newAdmissionChain(
        (name) => {
          const factory = gatewayPlugins.factory(name);
          if (!factory)
            throw new Error(`admission plugin ${name} is not registered in the gateway`);
          return factory(pluginDeps);
        },
        options.admissionPlugins,
        config.admission
          ? (names) =>
              servicePlugins(
                names,
                config.admission!.client,
                log.child({ component: 'admission' }),
                metrics.admissionServiceCalls,
                dynamicScope
              )
          : undefined,
        (names) => certificatePlugins(names, config.certificates?.client)
      ),
      authorizer: authz.authorizer,
      maxWatchSeconds: options.maxWatchSeconds,
      shuttingDown: this.#shuttingDown.signal,
    });
    // end of REST storage
    // Upstream warns when its deprecated plugins are enabled (plugin/pkg/admission/admit, deny).
    for (const name of deprecatedPlugins(options.admissionPlugins)) {
      log.warn(
        `${name} admission controller is deprecated. Please use a real admission controller instead.`
      );
    }

    this.#namespaces = namespaces;
    this.#services = stores.get('/v1/services');
    this.#priorityClasses = stores.get('scheduling.orch.io/v1/priorityclasses');
    const apiServices = stores.get('apiregistration.orch.io/v1/apiservices');
    this.#autoregister =
      apiServices && ((signal) => ensureLocalAPIServices(apiServices, registry, log, signal));
    const leases = stores.get('coordination.orch.io/v1/leases');
    const endpoints = stores.get('/v1/endpoints');
    const endpointSlices = stores.get('discovery.orch.io/v1/endpointslices');
    this.#endpointStores =
      leases && endpoints && endpointSlices && this.#services
        ? { leases, endpoints, endpointSlices, services: this.#services }
        : undefined;
    this.#informer = informer;
    const apf = options.enablePriorityAndFairness
      ? priorityAndFairness(registry, stores, cachers, options, log, metrics.registry, nats)
      : undefined;
    this.#apfConfig = apf?.config;
    this.#apfFleet = apf?.fleet;
    this.#startAdmissionScope = scopeSources?.start;
    this.#customResources = customResources;
    this.#authn = authn;
    this.#policyWatch = authz.cache
      ? new PolicyWatch(
          authz.cache,
          policyKinds(registry),
          cachers,
          log.child({ component: 'authorization-cache' })
        )
      : undefined;
    this.#audit = auditPipeline(options.audit, metrics.registry);

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
        if (!customResources.synced) throw new Error('custom resource definitions not synced');
      }),
      // k8s: the watch caches' readiness (a cache not synced yet, named).
      watchCaches: healthCheckerFunc('watch-cache-sync', () => {
        const pending = cachers.notSynced();
        if (pending.length > 0) throw new Error(`watch caches not synced: ${pending.join(', ')}`);
      }),
    };
    const readyz = [checks.etcd, checks.nats, checks.informers, checks.watchCaches];
    if (authz.health)
      readyz.push(bootstrapPolicyCheck(authz.health), authorizerServiceCheck(authz.health));
    if (config.admission) readyz.push(admissionServiceCheck(config.admission.health));
    if (config.certificates) readyz.push(certificatesServiceCheck(config.certificates.health));
    readyz.push(
      postStartHookCheck('start-system-namespaces-controller', () => this.#systemNamespacesCreated)
    );
    if (apf)
      readyz.push(
        postStartHookCheck('priority-and-fairness-config-consumer', () => apf.config.synced),
        postStartHookCheck(
          'apiserver/bootstrap-system-flowcontrol-configuration',
          () => apf.config.ensured
        )
      );
    if (this.#priorityClasses)
      readyz.push(
        postStartHookCheck(
          'scheduling/bootstrap-system-priority-classes',
          () => this.#systemPriorityClassesCreated
        )
      );

    if (this.#autoregister)
      readyz.push(
        healthCheckerFunc('autoregister-completion', () => {
          if (!this.#localAPIServicesAvailable) throw new Error('missing local APIServices');
        })
      );

    const aggregator = cacherLookups(registry, cachers);
    this.#startAggregator = aggregator?.start;
    const proxyClient = options.proxyClient;
    const proxyCert =
      proxyClient.certFile && proxyClient.keyFile
        ? {
            clientCert: readFileSync(proxyClient.certFile),
            clientKey: readFileSync(proxyClient.keyFile),
          }
        : {};
    const availabilityConfig = aggregator && {
      lookups: aggregator.lookups,
      serviceAddresses: options.webhookServiceAddresses,
      ...proxyCert,
    };
    this.#availability =
      aggregator && availabilityConfig && apiServices
        ? new AvailableConditionController(aggregator.caches, apiServices, availabilityConfig, log)
        : undefined;
    this.#extensionDiscovery =
      aggregator && availabilityConfig
        ? new ExtensionDiscovery(aggregator.caches.apiServices, availabilityConfig, log)
        : undefined;
    const handler = buildHandlerChain({
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
      upstreamGroupAliases: options.upstreamGroupAliases,
      maxReadOnlyInFlight: options.maxReadOnlyInFlight,
      maxMutatingInFlight: options.maxMutatingInFlight,
      ...(apf ? { priorityAndFairness: apf.filter } : {}),
      metrics: (next) => metrics.filter(next),
      installNonResource: (a) => {
        installHealthChecks(a, '/healthz', [checks.etcd, checks.nats], log);
        const livez = shutdown.livezGracePeriod(options.livezGraceMs)(checks.etcd);
        installHealthChecks(a, '/livez', [livez], log);
        installHealthChecks(a, '/readyz', [...readyz, shutdown.readyzCheck], log);
        a.get('/metrics', async (_req, res) => {
          let body: string;
          try {
            body = await metrics.registry.metrics();
          } catch (err) {
            res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
            res.end(String(err));
            return;
          }
          res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
          res.end(body);
        });
        apf?.installDebug(a);
        installAggregatedDiscovery(a, registry, defaultVersionInfo(), this.#extensionDiscovery);
        installOpenApi(a, registry, this.#extensionDiscovery);
        if (options.profiling) {
          installDebug(a, { component: 'gateway', logLevel: options.logLevel, log });
        }
      },
      ...(aggregator
        ? {
            aggregation: (next) =>
              withAggregation(next, {
                lookups: aggregator.lookups,
                serviceAddresses: options.webhookServiceAddresses,
                ...proxyCert,
              }),
          }
        : {}),
      resources,
    });

    const tls = options.tls!;
    const h2 = options.http2;
    this.server = createSecureServer(
      {
        cert: readFileSync(tls.certFile),
        key: readFileSync(tls.keyFile),
        ca: [readFileSync(tls.caFile, 'utf8'), ...authn.extraClientCas],
        requestCert: true,
        // An unverified client is anonymous, answered 401 by authentication.
        rejectUnauthorized: false,
        // ALPN h2 and http/1.1; a client offering neither is served HTTP/1.1.
        allowHTTP1: true,
        settings: {
          maxConcurrentStreams: h2.maxStreamsPerConnection,
          initialWindowSize: h2.maxUploadBufferPerStream,
          maxFrameSize: h2.maxUploadBufferPerStream,
        },
      },
      requestListener(handler)
    );
    // HTTP/1.1 connections of the same server (Node reads it from the server object).
    (this.server as Http2SecureServer & { keepAliveTimeout?: number }).keepAliveTimeout = 65_000;
    // HTTP/1.1 upgrades (exec, attach, port-forward over WebSocket) go through the same chain.
    this.server.on('upgrade', upgradeListener(handler));
    this.server.on('secureConnection', (socket: TLSSocket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    this.server.on('request', (req: Http2ServerRequest | IncomingMessage, res: ServerResponse) => {
      if (req.httpVersionMajor !== 1) return;
      const socket = req.socket;
      this.#http1InFlight.set(socket, (this.#http1InFlight.get(socket) ?? 0) + 1);
      res.once('close', () => {
        const n = (this.#http1InFlight.get(socket) ?? 1) - 1;
        this.#http1InFlight.set(socket, n);
        if (n === 0 && this.#shuttingDown.signal.aborted) socket.destroy();
      });
    });
    this.server.on('session', (session: ServerHttp2Session) => {
      this.#sessions.add(session);
      session.once('close', () => this.#sessions.delete(session));
      session.on('error', (err) => log.debug('HTTP/2 session error', { err }));
      session.setLocalWindowSize(h2.maxUploadBufferPerConnection);
      closeWhenIdle(session, h2.idleTimeoutMs);
    });
  }

  get serving(): Promise<number> {
    return this.#serving.promise;
  }

  /**
   * Throws if a service the enabled plugins run in does not serve them; once the admission
   * service has answered, asks it again every 10 s until `signal` (see below).
   */
  async #checkServedPlugins(signal: AbortSignal): Promise<void> {
    const { options, admission, certificates } = this.#config;
    const enabled = options.admissionPlugins;
    await Promise.all([
      admission &&
        checkServedPlugins('admission', admission.client, enabled, signal).then(() =>
          this.#refreshAdmissionServiceInfo(signal)
        ),
      certificates && checkServedPlugins('certificates', certificates.client, enabled, signal),
    ]);
  }

  /**
   * Asks the admission service's ListPlugins again every 10 s until `signal`, so that the
   * dynamic scope learns of a service restarted with ResourceQuota limitedResources (the
   * client keeps the last answer; a failed ask changes nothing).
   */
  async #refreshAdmissionServiceInfo(signal: AbortSignal): Promise<void> {
    const client = this.#config.admission?.client;
    while (client && !signal.aborted) {
      await sleep(admissionServiceInfoRefreshMs, undefined, { signal }).catch(() => undefined);
      if (!signal.aborted) await client.listPlugins().catch(() => undefined);
    }
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
      void this.#customResources.start();
      void this.#policyWatch?.start();
      this.#startAggregator?.();
      void this.#availability?.run(this.#shuttingDown.signal);
      void this.#extensionDiscovery?.run(this.#shuttingDown.signal);
      this.#startAdmissionScope?.();
      this.#authn.start();
      void this.#apfConfig?.run(this.#shuttingDown.signal);
      this.#apfFleet?.start(this.#shuttingDown.signal);
      const services = this.#services;
      // Runs until the signal, or until a service that does not serve the plugins this gateway
      // places there stops the gateway.
      const stop = new AbortController();
      const onAbort = (): void => stop.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) stop.abort();
      let mismatch: unknown;
      this.#checkServedPlugins(stop.signal).catch((err: unknown) => {
        mismatch = err;
        stop.abort();
      });
      const advertised = advertiseAddress(options.address);
      if (!advertised) log.warn('no address to advertise: default/kubernetes gets no endpoints');
      const endpointReconciler =
        this.#endpointStores && advertised !== undefined
          ? new LeaseEndpointReconciler(this.#endpointStores, advertised, port, log)
          : undefined;
      const endpointsReconciled = ensureSystemNamespaces(this.#namespaces, log, stop.signal)
        .then(async (created) => {
          this.#systemNamespacesCreated = created;
          if (created && services)
            await ensureKubernetesService(services, options.serviceRanges, port, log, stop.signal);
        })
        .then(() => endpointReconciler?.run(stop.signal));
      if (this.#priorityClasses)
        void ensureSystemPriorityClasses(this.#priorityClasses, log, stop.signal).then(
          (created) => (this.#systemPriorityClassesCreated = created)
        );
      void this.#autoregister?.(stop.signal).then(
        (done) => (this.#localAPIServicesAvailable = done)
      );
      log.info('gateway serving', { address: `https://${options.address}:${port}` });
      this.#serving.resolve(port);

      await aborted(stop.signal);
      signal.removeEventListener('abort', onAbort);
      // Upstream's RemoveEndpoints at shutdown: this gateway's address leaves default/kubernetes.
      await endpointReconciler?.stop(endpointsReconciled, 2000).catch((err: unknown) =>
        log.warn('removing this gateway from the kubernetes endpoints failed', {
          err: String(err),
        })
      );
      // readyz fails first; then the listener closes, watches end, idle HTTP/1.1 connections
      // close (and the others once their request is answered) and HTTP/2 sessions get GOAWAY (no
      // new streams); requests in flight finish, and whatever still runs after the grace has its
      // connection cut.
      await this.#shutdown.beginShutdown(options.shutdownDelayMs);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        this.#shuttingDown.abort();
        for (const socket of this.#sockets) {
          const http1 = socket.alpnProtocol !== 'h2';
          if (http1 && (this.#http1InFlight.get(socket) ?? 0) === 0) socket.destroy();
        }
        for (const session of this.#sessions) session.close();
        setTimeout(() => {
          for (const session of this.#sessions) session.destroy();
          for (const socket of this.#sockets) socket.destroy();
        }, shutdownGraceMs).unref();
      });
      this.#informer.stop();
      this.#policyWatch?.stop();
      this.#authn.stop();
      await this.#audit?.backend.shutdown();
      this.#kubelet.close();
      this.#proxyTransport.close();
      if (mismatch) throw mismatch;
    } catch (err) {
      this.#serving.reject(err);
      throw err;
    } finally {
      await this.#config.close();
    }
  }
}

/**
 * GOAWAY to a session that has had no open stream for `idleMs` (Go's http2.Server IdleTimeout:
 * a quiet watch keeps its connection, an unused one is closed).
 */
function closeWhenIdle(session: ServerHttp2Session, idleMs: number): void {
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    timer = setTimeout(() => session.close(), idleMs).unref();
  };
  session.on('stream', (stream: ServerHttp2Stream) => {
    open++;
    clearTimeout(timer);
    stream.once('close', () => {
      if (--open === 0 && !session.closed) arm();
    });
  });
  session.once('close', () => clearTimeout(timer));
  arm();
}

/** How often the gateway asks the admission service's ListPlugins again. */
const admissionServiceInfoRefreshMs = 10_000;

/** The kinds the RBAC decisions stand on. */
function policyKinds(registry: ResourceRegistry): ResourceDefinition[] {
  return registry
    .all()
    .filter((d) => d.group === 'rbac.authorization.orch.io' && d.version === 'v1');
}
