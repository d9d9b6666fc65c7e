// Fair across the fleet: the arithmetic (pure). Every gateway publishes a periodic summary of its
// occupancy (per priority level: its current concurrency limit and each flow's seats in use plus
// waiting; per watch cache: its watcher count) and reads its peers'. A flow that has demand at
// more than one gateway is held near its fleet share: across the fleet it gets no more than one
// gateway's seats of its level, nor more than the fleet's seats of the level shared equally by the
// level's active flows; each gateway gives it the part of that allowance its local demand is of
// the flow's fleet demand. A flow seen at one gateway only is left to local fair queuing.

/** One priority level of a gateway's summary. */
export interface LevelOccupancy {
  /** The level's current concurrency limit at that gateway. */
  cl: number;
  /** Flow key (`flowSchema/distinguisher`) → seats in use plus seats waiting; flows with none omitted. */
  flows: Record<string, number>;
}

/** The message one gateway publishes every period. */
export interface FleetSummary {
  /** The publishing gateway's identity (random per process). */
  gateway: string;
  /** The publisher's period in ms (a receiver declares the peer silent after K of them). */
  periodMs: number;
  levels: Record<string, LevelOccupancy>;
  /** Watch cache (storage prefix) → open watchers; caches with none omitted. */
  watchers: Record<string, number>;
}

/** At most this many flows per level in a summary (the ones with the most demand). */
export const maxFlowsPerLevel = 100;

/** A peer silent for this many of its periods is forgotten (its summary no longer counts). */
export const silentPeriods = 5;

export const flowKey = (flowSchema: string, distinguisher: string): string =>
  `${flowSchema}/${distinguisher}`;

/** The flows of a level with the most demand, at most maxFlowsPerLevel of them. */
export function boundFlows(flows: Map<string, number>): Record<string, number> {
  const sorted = [...flows].filter(([, d]) => d > 0).sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(sorted.slice(0, maxFlowsPerLevel));
}

/**
 * Per level, per flow with demand at some peer: the seats the flow may hold at this gateway.
 * allowance = round(min(local CL, fleet CL / active flows of the level in the fleet)), split
 * between the gateways where the flow has demand in proportion to it by largest remainders (ties
 * to the lower gateway id), so that every gateway computes the same split from the same summaries
 * and the parts add up to the allowance; a gateway's part is never below one seat (so the total
 * may pass the allowance by the gateways whose part would round to nothing).
 * `ids` names this gateway and each peer, in the order of `peers`.
 */
export function flowCaps(
  local: Record<string, LevelOccupancy>,
  peers: readonly Record<string, LevelOccupancy>[],
  ids: { local: string; peers: readonly string[] } = {
    local: '',
    peers: peers.map((_, i) => String(i + 1)),
  }
): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [level, mine] of Object.entries(local)) {
    const others = peers
      .map((p, i) => ({ id: ids.peers[i] ?? '', l: p[level] }))
      .filter((o): o is { id: string; l: LevelOccupancy } => !!o.l);
    if (others.length === 0) continue;
    const fleetCL = others.reduce((s, o) => s + o.l.cl, mine.cl);
    const fleetDemand = new Map<string, number>(Object.entries(mine.flows));
    for (const o of others)
      for (const [flow, d] of Object.entries(o.l.flows))
        fleetDemand.set(flow, (fleetDemand.get(flow) ?? 0) + d);
    const active = [...fleetDemand.values()].filter((d) => d > 0).length;
    if (active === 0) continue;
    const allowance = Math.max(1, Math.round(Math.min(mine.cl, fleetCL / active)));
    const caps = new Map<string, number>();
    for (const [flow, d] of Object.entries(mine.flows)) {
      const at = others.filter((o) => (o.l.flows[flow] ?? 0) > 0);
      if (d <= 0 || at.length === 0) continue;
      const parts = [{ id: ids.local, d }, ...at.map((o) => ({ id: o.id, d: o.l.flows[flow]! }))];
      caps.set(flow, Math.max(1, apportion(allowance, parts, ids.local)));
    }
    if (caps.size > 0) out.set(level, caps);
  }
  return out;
}

/** `whole` split by largest remainders over `parts` by their demand; the part of `id`. */
function apportion(whole: number, parts: { id: string; d: number }[], id: string): number {
  const total = parts.reduce((s, p) => s + p.d, 0);
  const quotas = parts.map((p) => ({ id: p.id, q: (whole * p.d) / total }));
  const shares = new Map(quotas.map((p) => [p.id, Math.floor(p.q)]));
  const left = whole - [...shares.values()].reduce((s, n) => s + n, 0);
  const byRemainder = [...quotas].sort(
    (a, b) => b.q - Math.floor(b.q) - (a.q - Math.floor(a.q)) || (a.id < b.id ? -1 : 1)
  );
  for (const p of byRemainder.slice(0, left)) shares.set(p.id, shares.get(p.id)! + 1);
  return shares.get(id) ?? 0;
}

/** The watchers of one watch cache across the fleet: the local count plus every peer's. */
export const fleetWatchers = (
  local: number,
  prefix: string,
  peers: readonly FleetSummary[]
): number => peers.reduce((s, p) => s + (p.watchers[prefix] ?? 0), local);

/** Peers heard from within K of their periods; the others are dropped from `peers`. */
export function freshPeers(
  peers: Map<string, { summary: FleetSummary; atMs: number }>,
  nowMs: number
): FleetSummary[] {
  const out: FleetSummary[] = [];
  for (const [id, p] of peers) {
    if (nowMs - p.atMs > silentPeriods * p.summary.periodMs) peers.delete(id);
    else out.push(p.summary);
  }
  return out;
}
