// One priority level's queues (k8s fairqueuing/queueset): fair queuing by virtual time in
// seat-seconds. A request is shuffle-sharded to the least loaded queue of its flow's hand, waits
// there, and is dispatched from the queue whose oldest request would finish first in virtual time
// (R), as long as the level has free seats. R advances at min(seats asked, limit) / active queues
// per second, so every active queue progresses at the same rate whatever its flow sends. Times are
// in milliseconds on an injectable clock; R is a float (upstream's fixed point and epoch advance
// guard 64-bit integers; a double keeps sub-microsecond precision for years of seat-seconds).
import { flowKey } from './fleet.js';
import { Dealer } from './shuffle-sharding.js';

/** The seats a request occupies while it runs and, for finalSeats, for a while after (upstream's WorkEstimate). */
export interface WorkEstimate {
  initialSeats: number;
  finalSeats: number;
  /** How long the final seats stay taken after the request ends, in ms. */
  additionalLatencyMs: number;
}

export const maxSeatsOf = (w: WorkEstimate): number => Math.max(w.initialSeats, w.finalSeats);

export interface QueuingConfig {
  /** 0: no queues, a request over the limit is rejected at once. */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** Why a request was not executed (upstream's apiserver_flowcontrol_rejected_requests_total reasons). */
export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** What the level's users learn as requests move (metrics and dumps hang off it). */
export interface QueueSetObserver {
  queued(flowSchema: string, delta: 1 | -1, seats: number): void;
  executing(flowSchema: string, delta: 1 | -1, seats: number): void;
  rejected(flowSchema: string, reason: RejectReason): void;
  dispatched(flowSchema: string, waitedMs: number): void;
}

/** The virtual time an executing request is assumed to take before it ends (upstream: 3 ms). */
const estimatedServiceMs = 3;

interface Queue {
  index: number;
  waiting: QueuedRequest[];
  /** The sum of the waiting requests' work, in seat-seconds. */
  waitingWork: number;
  /** The sum of the waiting requests' seats. */
  waitingSeats: number;
  executing: number;
  seatsInUse: number;
  /** The virtual time at which the queue's next request is dispatched. */
  nextDispatchR: number;
}

export class QueuedRequest {
  readonly arrivalMs: number;
  /** The flow's key (`flowSchema/distinguisher`), as the fleet summaries name it. */
  readonly flow: string;
  startMs = 0;
  queue: Queue | undefined;
  state: 'waiting' | 'executing' | 'finished' | 'rejected' = 'waiting';
  private settle!: (execute: boolean) => void;
  /** True when dispatched, false when cancelled or timed out in the queue. */
  readonly decision = new Promise<boolean>((resolve) => (this.settle = resolve));

  constructor(
    readonly set: QueueSet,
    readonly work: WorkEstimate,
    readonly flowSchema: string,
    readonly distinguisher: string,
    readonly arrivalR: number,
    readonly descr: string
  ) {
    this.arrivalMs = set.now();
    this.flow = flowKey(flowSchema, distinguisher);
  }

  get seats(): number {
    return maxSeatsOf(this.work);
  }

  /** The request's virtual work: its initial seats for the estimated service time plus its final seats' tail. */
  get totalWork(): number {
    return (
      (this.work.initialSeats * estimatedServiceMs +
        this.work.finalSeats * this.work.additionalLatencyMs) /
      1000
    );
  }

  decide(execute: boolean): void {
    this.settle(execute);
  }

  /** A waiting request given up (its deadline passed or its client left); no-op once dispatched. */
  cancel(reason: RejectReason): void {
    if (this.state === 'waiting') this.set.eject(this, reason);
  }

  /** The end of an executing request: its seats go back (the final seats after their latency). */
  finish(): void {
    if (this.state === 'executing') this.set.finish(this);
  }
}

export class QueueSet {
  private queues: Queue[] = [];
  private dealer: Dealer | undefined;
  private currentR = 0;
  private lastRealMs: number;
  private robin = -1;
  private enqueues = 0;
  totRequestsWaiting = 0;
  totSeatsWaiting = 0;
  totRequestsExecuting = 0;
  totSeatsInUse = 0;
  totRequestsRejected = 0;
  totRequestsDispatched = 0;
  totRequestsTimedOut = 0;
  totRequestsCancelled = 0;
  /** The executing requests, for the dumps. */
  readonly executingSet = new Set<QueuedRequest>();
  /** Flow key → seats in use (final seats included until released). */
  readonly #flowSeats = new Map<string, number>();
  /**
   * The fleet's cap on a flow's seats here (undefined: none, local fair queuing alone). A request
   * of a flow at its cap waits (its queue is passed over) unless the flow holds no seat here.
   */
  flowCap: ((flow: string) => number | undefined) | undefined;

  constructor(
    readonly name: string,
    private qCfg: QueuingConfig,
    public concurrencyLimit: number,
    private readonly observer: QueueSetObserver | undefined,
    readonly now: () => number = () => performance.now()
  ) {
    this.lastRealMs = now();
    this.configure(qCfg, concurrencyLimit);
  }

  get config(): QueuingConfig {
    return this.qCfg;
  }

  /** A new queuing config or limit: queues are added at once and dropped only when idle (upstream). */
  configure(qCfg: QueuingConfig, concurrencyLimit: number): void {
    this.syncTime();
    this.qCfg = qCfg;
    this.concurrencyLimit = concurrencyLimit;
    this.dealer = qCfg.queues > 0 ? Dealer.create(qCfg.queues, qCfg.handSize) : undefined;
    while (this.queues.length < qCfg.queues) this.queues.push(newQueue(this.queues.length));
    this.queues = this.queues.filter(
      (q, i) => i < qCfg.queues || q.waiting.length > 0 || q.executing > 0
    );
    this.queues.forEach((q, i) => (q.index = i));
    this.dispatchAsMuchAsPossible();
  }

  /**
   * Admit a request: undefined when rejected (queue full, or over the limit without queues), else
   * a request whose `decision` says whether it may execute.
   */
  start(
    work: WorkEstimate,
    hash: bigint,
    flowSchema: string,
    distinguisher: string,
    descr = ''
  ): QueuedRequest | undefined {
    this.syncTime();
    const req = new QueuedRequest(this, work, flowSchema, distinguisher, this.currentR, descr);
    if (this.qCfg.queues < 1) {
      if (!this.canAccommodate(req.seats)) return this.reject(req, 'concurrency-limit');
      this.execute(req);
      return req;
    }
    const queue = this.shuffleShard(hash);
    req.queue = queue;
    if (
      this.totSeatsInUse >= this.concurrencyLimit &&
      queue.waiting.length >= this.qCfg.queueLengthLimit
    )
      return this.reject(req, 'queue-full');
    if (queue.waiting.length === 0 && queue.executing === 0) queue.nextDispatchR = this.currentR;
    if (
      this.totRequestsWaiting === 0 &&
      this.totSeatsInUse < this.concurrencyLimit &&
      this.canAccommodate(req.seats) &&
      !this.overFlowCap(req)
    ) {
      // Nothing waits anywhere and it fits: what dispatchOne would do with this request alone
      // in its queue, without passing it through the queue and every other queue.
      if (queue.nextDispatchR < req.arrivalR) queue.nextDispatchR = req.arrivalR;
      this.robin = queue.index;
      this.dispatch(req, queue);
      return req;
    }
    queue.waiting.push(req);
    queue.waitingWork += req.totalWork;
    queue.waitingSeats += req.seats;
    this.totRequestsWaiting++;
    this.totSeatsWaiting += req.seats;
    this.observer?.queued(flowSchema, 1, req.seats);
    this.boundNextDispatch(queue);
    this.dispatchAsMuchAsPossible();
    return req;
  }

  /** Of the flow's hand, the queue with the least waiting work, starting at a rotating offset. */
  private shuffleShard(hash: bigint): Queue {
    const hand = this.dealer!.deal(hash);
    const offset = this.enqueues++ % hand.length;
    let best = this.queues[hand[offset]!]!;
    for (let i = 1; i < hand.length; i++) {
      const q = this.queues[hand[(offset + i) % hand.length]!]!;
      if (q.waitingWork < best.waitingWork) best = q;
    }
    return best;
  }

  private reject(req: QueuedRequest, reason: RejectReason): undefined {
    req.state = 'rejected';
    this.totRequestsRejected++;
    if (reason === 'time-out') this.totRequestsTimedOut++;
    if (reason === 'cancelled') this.totRequestsCancelled++;
    this.observer?.rejected(req.flowSchema, reason);
    return undefined;
  }

  /** Advance virtual time by the real time passed times the rate every active queue progresses at. */
  private syncTime(): void {
    const now = this.now();
    const elapsed = now - this.lastRealMs;
    this.lastRealMs = now;
    let active = 0;
    let seatsAsked = 0;
    for (const q of this.queues) {
      seatsAsked += q.seatsInUse + q.waitingSeats;
      if (q.waiting.length > 0 || q.executing > 0) active++;
    }
    if (active > 0)
      this.currentR += ((Math.min(seatsAsked, this.concurrencyLimit) / active) * elapsed) / 1000;
  }

  /** A queue never starts its next request before that request arrived in virtual time (anti-windup). */
  private boundNextDispatch(q: Queue): void {
    const oldest = q.waiting[0];
    if (oldest && q.nextDispatchR < oldest.arrivalR) q.nextDispatchR = oldest.arrivalR;
  }

  private canAccommodate(seats: number): boolean {
    if (seats > this.concurrencyLimit) return this.totRequestsExecuting === 0;
    return this.totSeatsInUse + seats <= this.concurrencyLimit;
  }

  private dispatchAsMuchAsPossible(): void {
    while (
      this.totRequestsWaiting > 0 &&
      this.totSeatsInUse < this.concurrencyLimit &&
      this.dispatchOne()
    );
  }

  /** Dispatch the oldest request of the queue with the least virtual finish time, if it fits. */
  private dispatchOne(): boolean {
    let min: Queue | undefined;
    let minFinish = Infinity;
    let minIndex = this.robin;
    const n = this.queues.length;
    for (let i = 0; i < n; i++) {
      this.robin = (this.robin + 1) % n;
      const q = this.queues[this.robin]!;
      const oldest = q.waiting[0];
      if (!oldest || this.overFlowCap(oldest)) continue;
      const finish = q.nextDispatchR + oldest.totalWork;
      if (finish < minFinish) {
        minFinish = finish;
        min = q;
        minIndex = this.robin;
      }
    }
    const req = min?.waiting[0];
    if (!min || !req || !this.canAccommodate(req.seats)) return false;
    this.robin = minIndex;
    this.removeWaiting(req);
    this.dispatch(req, min);
    return true;
  }

  /** Runs a request taken from its queue (or about to enter it) and charges the queue its work. */
  private dispatch(req: QueuedRequest, queue: Queue): void {
    // A final width over the whole level is cut to the level (upstream stretches its latency).
    if (req.work.finalSeats > this.concurrencyLimit) req.work.finalSeats = this.concurrencyLimit;
    this.execute(req);
    queue.nextDispatchR += req.totalWork;
    this.boundNextDispatch(queue);
  }

  /** The flow already holds seats here and this request would take it past the fleet's cap. */
  private overFlowCap(req: QueuedRequest): boolean {
    if (!this.flowCap) return false;
    const cap = this.flowCap(req.flow);
    if (cap === undefined) return false;
    const held = this.#flowSeats.get(req.flow) ?? 0;
    return held > 0 && held + req.seats > cap;
  }

  /** A new fleet view: requests held back by their flow's cap may fit now. */
  recheck(): void {
    this.syncTime();
    this.dispatchAsMuchAsPossible();
  }

  /** Flow key → seats in use plus seats waiting here (the fleet summary's per-flow demand). */
  flowDemand(): Map<string, number> {
    const out = new Map(this.#flowSeats);
    for (const q of this.queues)
      for (const r of q.waiting) out.set(r.flow, (out.get(r.flow) ?? 0) + r.seats);
    return out;
  }

  private removeWaiting(req: QueuedRequest): void {
    const q = req.queue!;
    q.waiting.splice(q.waiting.indexOf(req), 1);
    q.waitingWork -= req.totalWork;
    q.waitingSeats -= req.seats;
    this.totRequestsWaiting--;
    this.totSeatsWaiting -= req.seats;
    this.observer?.queued(req.flowSchema, -1, req.seats);
  }

  private execute(req: QueuedRequest): void {
    req.state = 'executing';
    req.startMs = this.now();
    this.totRequestsDispatched++;
    this.totRequestsExecuting++;
    this.totSeatsInUse += req.seats;
    this.#flowSeats.set(req.flow, (this.#flowSeats.get(req.flow) ?? 0) + req.seats);
    this.executingSet.add(req);
    if (req.queue) {
      req.queue.executing++;
      req.queue.seatsInUse += req.seats;
    }
    this.observer?.dispatched(req.flowSchema, req.startMs - req.arrivalMs);
    this.observer?.executing(req.flowSchema, 1, req.seats);
    req.decide(true);
  }

  eject(req: QueuedRequest, reason: RejectReason): void {
    this.syncTime();
    this.removeWaiting(req);
    this.boundNextDispatch(req.queue!);
    this.reject(req, reason);
    req.decide(false);
    this.dispatchAsMuchAsPossible();
  }

  finish(req: QueuedRequest): void {
    this.syncTime();
    req.state = 'finished';
    this.totRequestsExecuting--;
    this.executingSet.delete(req);
    const q = req.queue;
    if (q) {
      q.executing--;
      // A request done sooner than estimated gives its queue the virtual time back.
      const served = this.now() - req.startMs;
      q.nextDispatchR -= (req.work.initialSeats * (estimatedServiceMs - served)) / 1000;
    }
    const release = (): void => {
      this.totSeatsInUse -= req.seats;
      const held = (this.#flowSeats.get(req.flow) ?? 0) - req.seats;
      if (held > 0) this.#flowSeats.set(req.flow, held);
      else this.#flowSeats.delete(req.flow);
      if (q) q.seatsInUse -= req.seats;
      this.observer?.executing(req.flowSchema, -1, req.seats);
      this.dropIdleSurplusQueue(q);
      this.dispatchAsMuchAsPossible();
    };
    if (req.work.additionalLatencyMs <= 0) return release();
    // The executing count drops now; the seats stay taken for the write's watch fan-out.
    setTimeout(() => {
      this.syncTime();
      release();
    }, req.work.additionalLatencyMs).unref();
    this.dispatchAsMuchAsPossible();
  }

  private dropIdleSurplusQueue(q: Queue | undefined): void {
    if (!q || this.queues.length <= this.qCfg.queues) return;
    if (q.waiting.length > 0 || q.executing > 0 || q.seatsInUse > 0) return;
    this.queues.splice(this.queues.indexOf(q), 1);
    this.queues.forEach((x, i) => (x.index = i));
    if (this.robin >= this.queues.length) this.robin = -1;
  }

  isIdle(): boolean {
    return this.totRequestsWaiting === 0 && this.totRequestsExecuting === 0;
  }

  /** Per queue: waiting count, executing count, seats in use, next dispatch R (the dump_queues rows). */
  queueRows(): {
    index: number;
    waiting: number;
    executing: number;
    seatsInUse: number;
    nextDispatchR: number;
  }[] {
    return this.queues.map((q) => ({
      index: q.index,
      waiting: q.waiting.length,
      executing: q.executing,
      seatsInUse: q.seatsInUse,
      nextDispatchR: q.nextDispatchR,
    }));
  }

  /** The waiting requests, queue by queue (dump_requests). */
  waitingRequests(): QueuedRequest[] {
    return this.queues.flatMap((q) => q.waiting);
  }

  get virtualTime(): number {
    return this.currentR;
  }
}

const newQueue = (index: number): Queue => ({
  index,
  waiting: [],
  waitingWork: 0,
  waitingSeats: 0,
  executing: 0,
  seatsInUse: 0,
  nextDispatchR: 0,
});
