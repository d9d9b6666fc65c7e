// The APF config controller of a gateway (k8s apf_controller.go's informers plus
// pkg/registry/flowcontrol/ensurer): every gateway creates the mandatory and suggested objects
// that are absent (create-if-absent, so concurrent gateways never fight over them), follows the
// stored FlowSchemas and PriorityLevelConfigurations through its watch caches into the
// ApfController, and re-plans borrowing every period.
import type { FlowSchema, PriorityLevelConfiguration } from '@orch/api/flowcontrol/v1';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Logger } from '@orch/component-base/logs';
import type { WatchCache } from '../cache/watch-cache.js';
import { createUntilExists } from '../registry/create-until-exists.js';
import type { Store } from '../registry/store.js';
import type { ApfController } from './apf-controller.js';
import {
  mandatoryFlowSchemas,
  mandatoryPriorityLevels,
  suggestedFlowSchemas,
  suggestedPriorityLevels,
} from './bootstrap.js';

export interface ApfConfigSources {
  flowSchemas: { store: Store; cache: WatchCache; start: () => void };
  priorityLevels: { store: Store; cache: WatchCache; start: () => void };
}

/** Upstream re-plans borrowing every 10 s. */
export const borrowingPeriodMs = 10_000;

export class ApfConfigController {
  #ensured = false;
  #synced = false;

  constructor(
    private readonly controller: ApfController,
    private readonly sources: ApfConfigSources,
    private readonly log: Logger
  ) {}

  /** Whether the stored config has been digested once (a /readyz post-start hook). */
  get synced(): boolean {
    return this.#synced;
  }

  /** Whether the mandatory and suggested objects exist (a /readyz post-start hook). */
  get ensured(): boolean {
    return this.#ensured;
  }

  async run(signal: AbortSignal): Promise<void> {
    const { flowSchemas, priorityLevels } = this.sources;
    const objs = (xs: unknown[]): ApiObject[] => xs as ApiObject[];
    void Promise.all([
      createUntilExists(
        priorityLevels.store,
        objs([...mandatoryPriorityLevels, ...suggestedPriorityLevels]),
        'priority level configuration',
        this.log,
        signal
      ),
      createUntilExists(
        flowSchemas.store,
        objs([...mandatoryFlowSchemas, ...suggestedFlowSchemas]),
        'flow schema',
        this.log,
        signal
      ),
    ]).then(([a, b]) => (this.#ensured = a && b));
    flowSchemas.start();
    priorityLevels.start();
    await Promise.all([flowSchemas.cache.waitForSync(), priorityLevels.cache.waitForSync()]);
    if (signal.aborted) return;
    const digest = (): void => {
      if (signal.aborted) return;
      this.controller.setConfig(
        flowSchemas.cache.list() as unknown[] as FlowSchema[],
        priorityLevels.cache.list() as unknown[] as PriorityLevelConfiguration[]
      );
    };
    for (const cache of [flowSchemas.cache, priorityLevels.cache])
      cache.addEventHandler({
        onAdd: digest,
        onUpdate: digest,
        onDelete: digest,
        onReplace: digest,
      });
    digest();
    this.#synced = true;
    const timer = setInterval(() => this.controller.updateBorrowing(), borrowingPeriodMs);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  }
}
