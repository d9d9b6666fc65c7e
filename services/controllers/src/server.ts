// The controllers server (k8s cmd/kube-controller-manager app.Run): the controllers that
// `--controllers` enables, started once this replica leads (leader election on a Lease, unless
// --leader-elect=false), stopped when the signal aborts. Losing the lease ends run() with an
// error, so the process exits as kube-controller-manager does ("leaderelection lost").
// It listens on nothing (serving resolves with port 0 once the controllers are set up).
import { Deferred, aborted } from '@orch/component-base/run';
import type { Runnable } from '@orch/component-base/run';
import type { ControllersConfig } from './config.js';
import { isControllerEnabled } from './controller-names.js';
import { GarbageCollector } from './garbagecollector/garbage-collector.js';
import { LeaderElector, defaultIdentity } from './leaderelection/leader-elector.js';
import { NamespaceController } from './namespace/namespace-controller.js';
import { ServiceAccountsController } from './serviceaccount/serviceaccounts-controller.js';

/** A controller as the server runs it: run() until stop(). */
export interface Controller {
  run(): Promise<void>;
  stop(): void;
}

/** Each controller by canonical name (controller-names.ts), built on the config's client. */
export const controllerFactories: Record<string, (config: ControllersConfig) => Controller> = {
  'namespace-controller': (c) => new NamespaceController(c.client, c.log),
  'garbage-collector-controller': (c) => new GarbageCollector(c.client, c.log),
  'serviceaccount-controller': (c) => new ServiceAccountsController(c.client, c.log),
};

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
    const { log, options } = this.#config;
    const le = options.leaderElection;
    this.#serving.resolve(0);
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
      },
      log
    );
    let running: Promise<void> | undefined;
    const outcome = await elector.run(signal, (leading) => {
      running = this.#runControllers(leading);
    });
    await running;
    this.#config.close();
    if (outcome === 'lost') throw new Error('leaderelection lost');
  }

  /** Starts every enabled controller, stops them when `signal` aborts. */
  async #runControllers(signal: AbortSignal): Promise<void> {
    const { log } = this.#config;
    const controllers = this.enabled.map((name) => {
      const c = controllerFactories[name]!(this.#config);
      const done = c.run().catch((err: unknown) => log.error('controller failed', { name, err }));
      return { name, c, done };
    });
    log.info('controllers running', { controllers: controllers.map((c) => c.name) });
    await aborted(signal);
    for (const { c } of controllers) c.stop();
    this.#config.close(); // ends the requests in flight, so the controllers' loops return
    await Promise.all(controllers.map((c) => c.done));
  }
}
