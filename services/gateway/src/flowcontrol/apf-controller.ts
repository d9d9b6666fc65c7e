// The priority levels of one gateway (k8s pkg/util/flowcontrol/apf_controller.go): the config
// objects digested into a classification order and one queue set per Limited level, limits
// re-planned every borrowing period from each level's seat demand, and the handling of one
// request: classify, then execute at once (Exempt), reject, or queue.
import type { FlowSchema, PriorityLevelConfiguration } from '@orch/api/flowcontrol/v1';
import { mandatoryFlowSchemas, mandatoryPriorityLevels } from './bootstrap.js';
import { currentLimits, DemandIntegrator, nominalLimits } from './concurrency.js';
import type { LevelLimits, LevelShares } from './concurrency.js';
import { QueueSet } from './queue-set.js';
import type { QueuedRequest, QueueSetObserver, RejectReason, WorkEstimate } from './queue-set.js';
import { byPrecedence, flowDistinguisher, hashFlowID, matchesFlowSchema } from './rule.js';
import type { RequestDigest } from './rule.js';

export interface LevelState {
  config: PriorityLevelConfiguration;
  exempt: boolean;
  limits: LevelLimits;
  /** Undefined for Exempt levels, which never wait. */
  queues: QueueSet | undefined;
  demand: DemandIntegrator;
  /** Exempt levels' requests and seats executing (they have no queue set). */
  exemptExecuting: number;
  exemptSeats: number;
}

export interface Classification {
  flowSchema: FlowSchema;
  level: LevelState;
  distinguisher: string;
}

export type Admission =
  | { kind: 'execute'; classification: Classification; request?: QueuedRequest }
  | { kind: 'wait'; classification: Classification; request: QueuedRequest }
  | { kind: 'reject'; classification: Classification; reason: RejectReason };

/** What the controller tells its metrics: each level's limits, and a queue-set observer per level. */
export interface ApfObserver {
  levelLimits(level: string, nominal: number, current: number, lower: number, upper: number): void;
  levelObserver(level: string): QueueSetObserver;
}

export interface ApfControllerOptions {
  /** --max-requests-inflight + --max-mutating-requests-inflight. */
  serverConcurrencyLimit: number;
  observer?: ApfObserver;
  now?: () => number;
}

const limitedShares = (pl: PriorityLevelConfiguration): LevelShares => {
  const exempt = pl.spec.type === 'Exempt';
  const c = exempt ? pl.spec.exempt : pl.spec.limited;
  return {
    name: pl.metadata!.name!,
    exempt,
    nominalConcurrencyShares: c?.nominalConcurrencyShares ?? (exempt ? 0 : 30),
    lendablePercent: c?.lendablePercent ?? 0,
    borrowingLimitPercent: exempt ? undefined : pl.spec.limited?.borrowingLimitPercent,
  };
};

export class ApfController {
  readonly serverCL: number;
  readonly #observer: ApfObserver | undefined;
  readonly #now: () => number;
  #schemas: FlowSchema[] = [];
  readonly levels = new Map<string, LevelState>();
  /** Schemas whose priority level does not exist (the Dangling condition); never matched. */
  dangling = new Set<string>();

  constructor(opts: ApfControllerOptions) {
    this.serverCL = opts.serverConcurrencyLimit;
    this.#observer = opts.observer;
    this.#now = opts.now ?? (() => performance.now());
    this.setConfig([], []);
  }

  get schemas(): readonly FlowSchema[] {
    return this.#schemas;
  }

  /**
   * New config objects: the mandatory ones stand in for any missing (upstream imagines them), levels
   * keep their queue sets (reconfigured), a removed level's requests finish where they are.
   */
  setConfig(schemas: readonly FlowSchema[], levels: readonly PriorityLevelConfiguration[]): void {
    const plByName = new Map(levels.map((pl) => [pl.metadata!.name!, pl]));
    for (const m of mandatoryPriorityLevels)
      if (!plByName.has(m.metadata!.name!)) plByName.set(m.metadata!.name!, m);
    const fsByName = new Map(schemas.map((fs) => [fs.metadata!.name!, fs]));
    for (const m of mandatoryFlowSchemas)
      if (!fsByName.has(m.metadata!.name!)) fsByName.set(m.metadata!.name!, m);

    const shares = [...plByName.values()].map(limitedShares);
    const nominal = nominalLimits(this.serverCL, shares);
    const next = new Map<string, LevelState>();
    for (const pl of plByName.values()) {
      const name = pl.metadata!.name!;
      const exempt = pl.spec.type === 'Exempt';
      const limits = nominal.get(name)!;
      const old = this.levels.get(name);
      const q = pl.spec.limited?.limitResponse.queuing;
      const qCfg =
        pl.spec.limited?.limitResponse.type === 'Queue'
          ? {
              queues: q?.queues ?? 64,
              handSize: q?.handSize ?? 8,
              queueLengthLimit: q?.queueLengthLimit ?? 50,
            }
          : { queues: 0, handSize: 0, queueLengthLimit: 0 };
      let queues = old?.queues;
      if (!exempt) {
        const current = queues?.concurrencyLimit ?? limits.nominalCL;
        const cl = Math.min(limits.maxCL, Math.max(limits.minCL, current));
        if (queues) queues.configure(qCfg, cl);
        else queues = new QueueSet(name, qCfg, cl, this.#observer?.levelObserver(name), this.#now);
      } else queues = undefined;
      next.set(name, {
        config: pl,
        exempt,
        limits,
        queues,
        demand: old?.demand ?? new DemandIntegrator(this.#now),
        exemptExecuting: old?.exemptExecuting ?? 0,
        exemptSeats: old?.exemptSeats ?? 0,
      });
      this.#observer?.levelLimits(
        name,
        limits.nominalCL,
        queues?.concurrencyLimit ?? limits.nominalCL,
        limits.minCL,
        limits.maxCL
      );
    }
    this.levels.clear();
    for (const [k, v] of next) this.levels.set(k, v);
    this.dangling = new Set(
      [...fsByName.values()]
        .filter((fs) => !plByName.has(fs.spec.priorityLevelConfiguration.name))
        .map((fs) => fs.metadata!.name!)
    );
    this.#schemas = [...fsByName.values()]
      .filter((fs) => !this.dangling.has(fs.metadata!.name!))
      .sort(byPrecedence);
  }

  /** The first schema (by precedence, then name) matching the request, and its level. */
  classify(d: RequestDigest): Classification {
    const fs =
      this.#schemas.find((s) => matchesFlowSchema(d, s)) ??
      // Unreachable while catch-all matches everyone; kept so a request is never unclassified.
      this.#schemas.find((s) => s.metadata?.name === 'catch-all')!;
    return {
      flowSchema: fs,
      level: this.levels.get(fs.spec.priorityLevelConfiguration.name)!,
      distinguisher: flowDistinguisher(d, fs),
    };
  }

  admit(d: RequestDigest, work: WorkEstimate, descr = ''): Admission {
    const classification = this.classify(d);
    const { flowSchema, level, distinguisher } = classification;
    const fsName = flowSchema.metadata!.name!;
    if (level.exempt || !level.queues) {
      const observer = this.#observer?.levelObserver(level.config.metadata!.name!);
      observer?.dispatched(fsName, 0);
      observer?.executing(fsName, 1, 1);
      level.exemptExecuting++;
      level.exemptSeats += 1;
      level.demand.set(level.exemptSeats);
      return { kind: 'execute', classification };
    }
    const qs = level.queues;
    const request = qs.start(work, hashFlowID(fsName, distinguisher), fsName, distinguisher, descr);
    level.demand.set(qs.totSeatsInUse + qs.totSeatsWaiting);
    if (!request)
      return {
        kind: 'reject',
        classification,
        reason: qs.config.queues < 1 ? 'concurrency-limit' : 'queue-full',
      };
    return request.state === 'executing'
      ? { kind: 'execute', classification, request }
      : { kind: 'wait', classification, request };
  }

  /** The end of an admitted request. */
  finish(a: Admission): void {
    const level = a.classification.level;
    if (a.kind === 'reject') return;
    if (a.request) {
      a.request.finish();
      const qs = level.queues!;
      level.demand.set(qs.totSeatsInUse + qs.totSeatsWaiting);
    } else {
      const fsName = a.classification.flowSchema.metadata!.name!;
      this.#observer?.levelObserver(level.config.metadata!.name!).executing(fsName, -1, 1);
      level.exemptExecuting--;
      level.exemptSeats -= 1;
      level.demand.set(level.exemptSeats);
    }
  }

  /** One borrowing period: every Limited level's current limit re-planned from its demand. */
  updateBorrowing(): void {
    let remaining = this.serverCL;
    const planned: Parameters<typeof currentLimits>[1] = [];
    for (const [name, l] of this.levels) {
      const demand = l.demand.reset();
      if (l.exempt) remaining -= Math.max(l.limits.minCL, demand.highWatermark);
      else planned.push({ name, limits: l.limits, demand });
    }
    const limits = currentLimits(Math.max(0, remaining), planned);
    for (const [name, cl] of limits) {
      const l = this.levels.get(name)!;
      l.queues!.configure(l.queues!.config, Math.max(1, cl));
      this.#observer?.levelLimits(name, l.limits.nominalCL, cl, l.limits.minCL, l.limits.maxCL);
    }
  }
}
