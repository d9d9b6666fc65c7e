// Seats per priority level (k8s apf_controller.go, conc_alloc.go): the server's seats
// (--max-requests-inflight + --max-mutating-requests-inflight) shared by nominal concurrency
// shares; each level may lend part of its nominal seats and borrow up to a limit, and every
// borrowing period the current limits are re-planned from each level's seat demand.

export interface LevelShares {
  name: string;
  exempt: boolean;
  nominalConcurrencyShares: number;
  lendablePercent: number;
  /** Undefined: may borrow without limit. */
  borrowingLimitPercent: number | undefined;
}

export interface LevelLimits {
  nominalCL: number;
  minCL: number;
  maxCL: number;
}

/** NominalCL = ceil(serverCL × NCS / ΣNCS); minCL keeps what is not lendable; maxCL adds what may be borrowed. */
export function nominalLimits(serverCL: number, levels: LevelShares[]): Map<string, LevelLimits> {
  const sum = levels.reduce((s, l) => s + l.nominalConcurrencyShares, 0);
  const out = new Map<string, LevelLimits>();
  for (const l of levels) {
    const nominalCL = sum > 0 ? Math.ceil((serverCL * l.nominalConcurrencyShares) / sum) : 0;
    const lendable = Math.round((nominalCL * l.lendablePercent) / 100);
    const borrowing =
      l.borrowingLimitPercent === undefined
        ? serverCL
        : Math.round((nominalCL * l.borrowingLimitPercent) / 100);
    out.set(l.name, { nominalCL, minCL: nominalCL - lendable, maxCL: nominalCL + borrowing });
  }
  return out;
}

export interface AllocItem {
  lowerBound: number;
  upperBound: number;
  target: number;
}

/**
 * Allocations summing to requiredSum, each clamp(fairProp × target, lower, upper) for one fairProp
 * (upstream's computeConcurrencyAllocation; found here by bisection, which converges to the same
 * point since the sum is monotone in fairProp).
 */
export function computeConcurrencyAllocation(requiredSum: number, items: AllocItem[]): number[] {
  const alloc = (p: number): number[] =>
    items.map((i) => Math.min(i.upperBound, Math.max(i.lowerBound, p * i.target)));
  const sum = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);
  const lowSum = sum(items.map((i) => i.lowerBound));
  const highSum = sum(items.map((i) => i.upperBound));
  if (requiredSum <= lowSum) return items.map((i) => i.lowerBound);
  if (requiredSum >= highSum) return items.map((i) => i.upperBound);
  let lo = 0;
  let hi = 1;
  while (sum(alloc(hi)) < requiredSum) hi *= 2;
  for (let n = 0; n < 60; n++) {
    const mid = (lo + hi) / 2;
    if (sum(alloc(mid)) < requiredSum) lo = mid;
    else hi = mid;
  }
  return alloc(hi);
}

/** A level's seat demand over one borrowing period (upstream's seatDemandStats). */
export interface SeatDemand {
  highWatermark: number;
  /** avg + stddev of the period, smoothed across periods. */
  smoothed: number;
}

/**
 * The current limits from nominal limits and demand (upstream's updateBorrowingLocked): each
 * non-exempt level gets at least its unlendable seats (more if its demand was above them, up to
 * nominal), and the rest of the server's seats go by demand within [minCurrentCL, maxCL].
 */
export function currentLimits(
  serverCL: number,
  levels: { name: string; limits: LevelLimits; demand: SeatDemand }[]
): Map<string, number> {
  const items = levels.map(({ limits, demand }) => {
    const minCurrentCL = Math.max(limits.minCL, Math.min(limits.nominalCL, demand.highWatermark));
    return {
      minCL: limits.minCL,
      minCurrentCL,
      item: {
        lowerBound: minCurrentCL,
        upperBound: limits.maxCL,
        target: Math.max(minCurrentCL, demand.smoothed),
      },
    };
  });
  const minCLSum = items.reduce((s, i) => s + i.minCL, 0);
  const minCurrentSum = items.reduce((s, i) => s + i.minCurrentCL, 0);
  const out = new Map<string, number>();
  if (serverCL <= minCLSum) {
    levels.forEach((l, k) => out.set(l.name, items[k]!.minCL));
  } else if (serverCL <= minCurrentSum) {
    const share = (serverCL - minCLSum) / (minCurrentSum - minCLSum);
    levels.forEach((l, k) => {
      const i = items[k]!;
      out.set(l.name, i.minCL + Math.round((i.minCurrentCL - i.minCL) * share));
    });
  } else {
    const allocs = computeConcurrencyAllocation(
      serverCL,
      items.map((i) => i.item)
    );
    levels.forEach((l, k) => out.set(l.name, Math.round(allocs[k]!)));
  }
  return out;
}

/** Time-weighted seat demand of one level over a period (upstream's seatDemandIntegrator). */
export class DemandIntegrator {
  private last: number;
  private value = 0;
  private duration = 0;
  private integral = 0;
  private sumSquares = 0;
  private high = 0;
  private smoothed = 0;

  constructor(private readonly now: () => number) {
    this.last = now();
  }

  set(value: number): void {
    this.advance();
    this.value = value;
    this.high = Math.max(this.high, value);
  }

  private advance(): void {
    const now = this.now();
    const dt = now - this.last;
    this.last = now;
    this.duration += dt;
    this.integral += this.value * dt;
    this.sumSquares += this.value * this.value * dt;
  }

  /** The period's demand, and a new period starting at the current value. */
  reset(): SeatDemand {
    this.advance();
    const avg = this.duration > 0 ? this.integral / this.duration : this.value;
    const variance =
      this.duration > 0 ? Math.max(0, this.sumSquares / this.duration - avg * avg) : 0;
    const envelope = avg + Math.sqrt(variance);
    this.smoothed = Math.max(envelope, 0.977 * this.smoothed + 0.023 * envelope);
    const out = { highWatermark: this.high, smoothed: this.smoothed };
    this.duration = this.integral = this.sumSquares = 0;
    this.high = this.value;
    return out;
  }
}
