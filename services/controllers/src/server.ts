// The controllers server (k8s cmd/kube-controller-manager app.Run): the controllers that
// `--controllers` enables, started once this replica leads (leader election on a Lease, unless
// --leader-elect=false), stopped when the signal aborts. Losing the lease ends run() with an
// error, so the process exits as kube-controller-manager does ("leaderelection lost").
// It listens only with its operational server (--secure-port; serving resolves with that port,
// 0 when it is not served), which answers while the replica waits for the lease, as upstream's.
import { startOperationalServer } from '@orch/component-base/operational';
import { Deferred, aborted } from '@orch/component-base/run';
import type { Runnable } from '@orch/component-base/run';
import type { RestClient } from '@orch/apimachinery/client';
import type { ControllersConfig } from './config.js';
import { isControllerEnabled, knownControllers } from './controller-names.js';
import { ServiceAccountCredentials } from './service-account-credentials.js';
import { GarbageCollector } from './garbagecollector/garbage-collector.js';
import { LeaderElector, defaultIdentity } from '@orch/component-base/leaderelection';
import { CrdFinalizer } from './apiextensions/crd-finalizer.js';
import { EstablishingController } from './apiextensions/establishing-controller.js';
import { NamingController } from './apiextensions/naming-controller.js';
import { DisruptionController } from './disruption/disruption-controller.js';
import { RootCaCertPublisher } from './rootcacertpublisher/root-ca-cert-publisher.js';
import { NamespaceController } from './namespace/namespace-controller.js';
import { ResourceQuotaController } from './resourcequota/resource-quota-controller.js';
import { ServiceAccountsController } from './serviceaccount/serviceaccounts-controller.js';
import { TokensController } from './serviceaccount/tokens-controller.js';
import { PVCProtectionController } from './volumeprotection/pvc-protection-controller.js';
import { PVProtectionController } from './volumeprotection/pv-protection-controller.js';

/** A controller as the server runs it: run() until stop(). */
export interface Controller {
  run(): Promise<void>;
  stop(): void;
}

/**
 * Each controller by canonical name (controller-names.ts), built on its own client (its
 * ServiceAccount's token, or the component's certificate without service account credentials).
 */
export const controllerFactories: Record<
  string,
  (config: ControllersConfig, client: RestClient) => Controller | undefined
> = {
  'namespace-controller': (c, client) => new NamespaceController(client, c.log),
  'garbage-collector-controller': (c, client) => new GarbageCollector(client, c.log),
  'serviceaccount-controller': (c, client) => new ServiceAccountsController(client, c.log),
  // k8s startServiceAccountTokenController: off without a private key to sign with.
  'serviceaccount-token-controller': (c, client) =>
    c.tokenSigningKey && new TokensController(client, c.log, c.tokenSigningKey, c.rootCa),
  'resourcequota-controller': (c, client) =>
    new ResourceQuotaController(client, c.log, { resyncMs: c.options.resourceQuotaSyncMs }),
  'persistentvolumeclaim-protection-controller': (c, client) =>
    new PVCProtectionController(client, c.log),
  'persistentvolume-protection-controller': (c, client) =>
    new PVProtectionController(client, c.log),
  'disruption-controller': (c, client) => new DisruptionController(client, c.log),
  'root-ca-certificate-publisher-controller': (c, client) =>
    new RootCaCertPublisher(client, c.log, c.rootCa),
  'crd-naming-controller': (c, client) => new NamingController(client, c.log),
  'crd-establishing-controller': (c, client) => new EstablishingController(client, c.log),
  'crd-finalizer-controller': (c, client) => new CrdFinalizer(client, c.log),
};

/** Where the controllers' ServiceAccounts live (k8s: kube-system). */
export const controllersNamespace = 'orch-system';

export class ControllersServer implements Runnable {
  readonly #config: ControllersConfig;
  readonly #serving = new Deferred<number>();
  /** The lease holder identity of this replica. */
  readonly identity = defaultIdentity();

  constructor(config: ControllersConfig) {
    this.#config = config;
  }

  get serving(): Promise<number> {
    return this.#serving.promise;
  }

  /** The names (canonical) of the controllers this replica runs when it leads. */
  get enabled(): string[] {
    return Object.keys(controllerFactories).filter((n) =>
      isControllerEnabled(n, this.#config.options.controllers)
    );
  }

  async run(signal: AbortSignal): Promise<void> {
    const { log, options, registry } = this.#config;
    let operational;
    try {
      operational = await startOperationalServer({
        component: 'controllers',
        options: options.operational,
        registry,
        log,
        logLevel: options.logLevel,
        configz: () => options,
      });
    } catch (err) {
      this.#serving.reject(err);
      throw err;
    }
    this.#serving.resolve(operational?.port ?? 0);
    try {
      await this.#lead(signal);
    } finally {
      await operational?.close();
    }
  }

  /** Runs the controllers, while this replica leads when --leader-elect. */
  async #lead(signal: AbortSignal): Promise<void> {
    const { log, options } = this.#config;
    const le = options.leaderElection;
    if (!le.leaderElect) {
      await this.#runControllers(signal);
      this.#config.close();
      return;
    }
    const elector = new LeaderElector(
      this.#config.client,
      {
        namespace: le.resourceNamespace,
        name: le.resourceName,
        identity: this.identity,
        leaseDurationMs: le.leaseDurationMs,
        renewDeadlineMs: le.renewDeadlineMs,
        retryPeriodMs: le.retryPeriodMs,
        // A clean stop (SIGTERM, SIGINT) gives the lease up, so that the next replica (or this
        // one restarted) leads at once instead of waiting out the lease duration.
        releaseOnCancel: true,
      },
      log
    );
    // run() returns once the controllers it started have stopped (and the lease is released).
    const outcome = await elector.run(signal, (leading) => this.#runControllers(leading));
    this.#config.close();
    if (outcome === 'lost') throw new Error('leaderelection lost');
  }

  /** Starts every enabled controller, stops them when `signal` aborts. */
  async #runControllers(signal: AbortSignal): Promise<void> {
    const { log, options } = this.#config;
    const credentials: ServiceAccountCredentials[] = [];
    const controllers: { name: string; c: Controller; done: Promise<void> }[] = [];
    try {
      for (const name of this.enabled) {
        let client = this.#config.client;
        if (options.useServiceAccountCredentials) {
          const sa = knownControllers.find((k) => k.name === name)!.serviceAccount;
          const creds = await this.#credentials(sa, signal);
          if (!creds) break;
          credentials.push(creds);
          client = creds.client;
        }
        const c = controllerFactories[name]!(this.#config, client);
        if (!c) {
          log.info('controller is disabled by its configuration', { name });
          continue;
        }
        const done = c.run().catch((err: unknown) => log.error('controller failed', { name, err }));
        controllers.push({ name, c, done });
      }
      if (!signal.aborted) {
        log.info('controllers running', { controllers: controllers.map((c) => c.name) });
      }
      await aborted(signal);
    } finally {
      for (const { c } of controllers) c.stop();
      // Ends the requests in flight, so the controllers' loops return.
      for (const creds of credentials) creds.close();
      this.#config.close();
      await Promise.all(controllers.map((c) => c.done));
    }
  }

  /** A controller's ServiceAccount credentials, retried until they come or `signal` aborts. */
  async #credentials(
    serviceAccount: string,
    signal: AbortSignal
  ): Promise<ServiceAccountCredentials | undefined> {
    const { client, restConfig, log } = this.#config;
    while (!signal.aborted) {
      try {
        return await ServiceAccountCredentials.create(
          client,
          restConfig,
          controllersNamespace,
          serviceAccount,
          log
        );
      } catch (err) {
        log.warn('controller credentials failed; retrying', { serviceAccount, err });
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    return undefined;
  }
}
