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
import { StatusRest } from '../registry/status-rest.js';
import type { Store } from '../registry/store.js';
import type { ApfController } from './apf-controller.js';
import {
  mandatoryFlowSchemas,
  mandatoryPriorityLevels,
  suggestedFlowSchemas,
  suggestedPriorityLevels,
} from './bootstrap.js';
import { specUpdate } from './auto-update.js';
import { danglingCondition, showsDangling, withDanglingCondition } from './dangling.js';

export interface ApfConfigSources {
  flowSchemas: { store: Store; cache: WatchCache; start: () => void };
  priorityLevels: { store: Store; cache: WatchCache; start: () => void };
}

/** Upstream re-plans borrowing every 10 s. */
export const borrowingPeriodMs = 10_000;

export class ApfConfigController {
  #ensured = false;
  #status: StatusRest | undefined;
  #synced = false;
  /** The Dangling status written for each schema whose cached copy does not show it yet. */
  readonly #writing = new Map<string, string>();

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
    // The priority levels first, as upstream's ensurer: a schema created after its level is
    // never Dangling, and gets its condition written once (False), not twice.
    void (async (): Promise<[boolean, boolean]> => [
      await createUntilExists(
        priorityLevels.store,
        objs([...mandatoryPriorityLevels, ...suggestedPriorityLevels]),
        'priority level configuration',
        this.log,
        signal
      ),
      await createUntilExists(
        flowSchemas.store,
        objs([...mandatoryFlowSchemas, ...suggestedFlowSchemas]),
        'flow schema',
        this.log,
        signal
      ),
    ])()
      .then(async ([a, b]) => {
        if (a && b) await this.#updateSpecs();
        this.#ensured = a && b;
      })
      .catch((err: unknown) =>
        this.log.warn('could not bring the bootstrap flowcontrol objects up to date', {
          err: String(err),
        })
      );
    flowSchemas.start();
    priorityLevels.start();
    await Promise.all([flowSchemas.cache.waitForSync(), priorityLevels.cache.waitForSync()]);
    if (signal.aborted) return;
    const digest = (): void => {
      if (signal.aborted) return;
      const schemas = flowSchemas.cache.list() as unknown[] as FlowSchema[];
      const levels = priorityLevels.cache.list() as unknown[] as PriorityLevelConfiguration[];
      this.controller.setConfig(schemas, levels);
      this.#updateDangling(schemas, new Set(levels.map((pl) => pl.metadata?.name ?? '')));
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

  /**
   * Each schema whose Dangling status changed gets it written through the status subresource,
   * once: a digest before the cache shows the write (every add and update digests again) does
   * not write it a second time, which made each gateway's start race its own writes (26
   * conflicts for 11 schemas). A write that failed is tried by the next digest.
   */
  #updateDangling(schemas: FlowSchema[], levelNames: ReadonlySet<string>): void {
    this.#status ??= new StatusRest(this.sources.flowSchemas.store);
    const status = this.#status;
    for (const fs of schemas) {
      const name = fs.metadata!.name!;
      const condition = danglingCondition(fs, levelNames);
      if (showsDangling(fs, condition)) {
        this.#writing.delete(name); // the cache has it
        continue;
      }
      const want = condition.status ?? '';
      if (this.#writing.get(name) === want) continue;
      this.#writing.set(name, want);
      status
        .update(
          {},
          name,
          (current) => {
            const cur = (current as FlowSchema | undefined) ?? fs;
            return (withDanglingCondition(cur, levelNames, new Date()) ?? cur) as ApiObject;
          },
          { dryRun: false }
        )
        .catch((err: unknown) => {
          if (this.#writing.get(name) === want) this.#writing.delete(name);
          this.log.warn('could not set the Dangling condition', { name, err: String(err) });
        });
    }
  }

  /** The bootstrap objects' specs put back where upstream's ensurer would (auto-update.ts). */
  async #updateSpecs(): Promise<void> {
    const { flowSchemas, priorityLevels } = this.sources;
    const sets: [Store, unknown[], boolean][] = [
      [priorityLevels.store, mandatoryPriorityLevels, true],
      [priorityLevels.store, suggestedPriorityLevels, false],
      [flowSchemas.store, mandatoryFlowSchemas, true],
      [flowSchemas.store, suggestedFlowSchemas, false],
    ];
    for (const [store, objects, mandatory] of sets)
      for (const bootstrap of objects as ApiObject[]) {
        const name = bootstrap.metadata.name!;
        await store.update(
          {},
          name,
          (current) => {
            if (!current) throw new Error(`${name} is gone`);
            return specUpdate(current, bootstrap, mandatory) ?? current;
          },
          { dryRun: false }
        );
      }
  }
}
