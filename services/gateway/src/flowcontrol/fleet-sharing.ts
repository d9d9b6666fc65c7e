// Fair across the fleet over NATS: every period (200 ms) the gateway publishes its occupancy
// summary on `orch.flowcontrol.summary`, keeps its peers' latest summaries, and sets on each
// Limited level's queue set the seat caps of the flows that also have demand elsewhere
// (`flowCaps`). A peer silent for K periods is forgotten; with no peer left (NATS down, alone),
// no cap is set and the gateway's own fair queuing and limits are all that apply.
import { randomUUID } from 'node:crypto';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from '@orch/component-base/logs';
import type { ApfController } from './apf-controller.js';
import { boundFlows, fleetWatchers, flowCaps, freshPeers } from './fleet.js';
import type { FleetSummary, LevelOccupancy } from './fleet.js';

export const fleetSummarySubject = 'orch.flowcontrol.summary';
export const fleetPeriodMs = 200;

export interface FleetSharingOptions {
  nats: NatsConnection;
  controller: ApfController;
  /** Watch cache (storage prefix) → open watchers here. */
  localWatchers: () => Map<string, number>;
  log: Logger;
  periodMs?: number;
  now?: () => number;
}

export class FleetSharing {
  readonly id = randomUUID();
  readonly #o: FleetSharingOptions;
  readonly #periodMs: number;
  readonly #now: () => number;
  readonly #peers = new Map<string, { summary: FleetSummary; atMs: number }>();
  #caps = new Map<string, Map<string, number>>();
  #fresh: FleetSummary[] = [];
  #timer: NodeJS.Timeout | undefined;
  #sub: Subscription | undefined;
  #published = 0;

  constructor(o: FleetSharingOptions) {
    this.#o = o;
    this.#periodMs = o.periodMs ?? fleetPeriodMs;
    this.#now = o.now ?? (() => performance.now());
  }

  /** Peers heard from within K periods (as of the last period). */
  get peers(): number {
    return this.#fresh.length;
  }

  get published(): number {
    return this.#published;
  }

  /** The dump_fleet table: the fresh peers, then every flow's seat cap here. */
  dump(): string {
    const rows = [...this.#caps].flatMap(([level, caps]) =>
      [...caps].map(([flow, cap]) => `${level}, ${flow}, ${cap}`)
    );
    return [`Peers: ${this.peers}`, 'PriorityLevelName, Flow, SeatCap', ...rows, ''].join('\n');
  }

  /** The cap on a flow's seats at one level here, if the fleet sets one. */
  cap(level: string, flow: string): number | undefined {
    return this.#caps.get(level)?.get(flow);
  }

  /** The watchers of a watch cache across the fleet (local alone when no peer is fresh). */
  watchers(prefix: string, local: number): number {
    return fleetWatchers(local, prefix, this.#fresh);
  }

  start(signal: AbortSignal): void {
    if (this.#timer || signal.aborted) return;
    try {
      this.#sub = this.#o.nats.subscribe(fleetSummarySubject, {
        callback: (err, msg) => {
          if (err) return;
          try {
            const s = JSON.parse(new TextDecoder().decode(msg.data)) as FleetSummary;
            if (s.gateway !== this.id && typeof s.periodMs === 'number')
              this.#peers.set(s.gateway, { summary: s, atMs: this.#now() });
          } catch {
            // A malformed summary is ignored; its sender is forgotten once silent.
          }
        },
      });
    } catch (e) {
      this.#o.log.info('fleet summaries not subscribed; local accounting only', { err: String(e) });
    }
    this.#timer = setInterval(() => this.tick(), this.#periodMs).unref();
    signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#sub?.unsubscribe();
    this.#sub = undefined;
    this.#peers.clear();
    this.#fresh = [];
    this.#apply(new Map());
  }

  /** One period: publish the local summary, recompute the caps from the fresh peers. */
  tick(): void {
    const levels = this.localLevels();
    const summary: FleetSummary = {
      gateway: this.id,
      periodMs: this.#periodMs,
      levels,
      watchers: Object.fromEntries([...this.#o.localWatchers()].filter(([, n]) => n > 0)),
    };
    try {
      if (!this.#o.nats.isClosed()) {
        this.#o.nats.publish(fleetSummarySubject, JSON.stringify(summary));
        this.#published++;
      }
    } catch {
      // NATS down: the peers fall silent for us too, and we fall back to local accounting.
    }
    this.#fresh = freshPeers(this.#peers, this.#now());
    this.#apply(
      flowCaps(
        levels,
        this.#fresh.map((p) => p.levels),
        { local: this.id, peers: this.#fresh.map((p) => p.gateway) }
      )
    );
  }

  localLevels(): Record<string, LevelOccupancy> {
    const out: Record<string, LevelOccupancy> = {};
    for (const [name, l] of this.#o.controller.levels) {
      if (!l.queues) continue;
      out[name] = { cl: l.queues.concurrencyLimit, flows: boundFlows(l.queues.flowDemand()) };
    }
    return out;
  }

  #apply(caps: Map<string, Map<string, number>>): void {
    const before = this.#caps;
    this.#caps = caps;
    for (const [name, l] of this.#o.controller.levels) {
      const qs = l.queues;
      if (!qs) continue;
      const mine = caps.get(name);
      qs.flowCap = mine ? (flow) => mine.get(flow) : undefined;
      if (before.has(name) || mine) qs.recheck();
    }
  }
}
