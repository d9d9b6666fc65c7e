// The controllers server: the controllers wired to the API client; run() runs them until its
// signal. It listens on nothing (serving resolves with port 0 once the controllers run).
import { Deferred, aborted } from '@orch/component-base/run';
import type { Runnable } from '@orch/component-base/run';
import type { ControllersConfig } from './config.js';
import { NamespaceController } from './namespace/namespace-controller.js';
import { ResourceQuotaController } from './resourcequota/resource-quota-controller.js';

export class ControllersServer implements Runnable {
  readonly namespaces: NamespaceController;
  readonly quotas: ResourceQuotaController;
  readonly #config: ControllersConfig;
  readonly #serving = new Deferred<number>();

  constructor(config: ControllersConfig) {
    this.#config = config;
    this.namespaces = new NamespaceController(config.client, config.log);
    this.quotas = new ResourceQuotaController(config.client, config.log, {
      resyncMs: config.options.resourceQuotaSyncMs,
    });
  }

  get serving(): Promise<number> {
    return this.#serving.promise;
  }

  async run(signal: AbortSignal): Promise<void> {
    const namespaces = this.namespaces.run();
    const quotas = this.quotas.run();
    this.#config.log.info('controllers running');
    this.#serving.resolve(0);
    await aborted(signal);
    this.namespaces.stop();
    this.quotas.stop();
    this.#config.close(); // ends the requests in flight, so the controllers' loops return
    await namespaces.catch(() => undefined);
    await quotas.catch(() => undefined);
  }
}
