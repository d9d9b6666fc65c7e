// The seats a request is expected to occupy (k8s pkg/util/flowcontrol/request: config.go,
// list_work_estimator.go, mutating_work_estimator.go). A LIST costs one seat per 100 objects it
// walks; a write holds one seat per 10 watchers for a short tail after it ends, the time its
// events take to reach them; everything else costs one seat.
import type { RequestInfo } from '../request/request-info.js';
import type { WorkEstimate } from './queue-set.js';

export const workEstimatorConfig = {
  minimumSeats: 1,
  maximumSeats: 10,
  objectsPerSeat: 100,
  watchesPerSeat: 10,
  /** The tail of a write per seat of watch fan-out (upstream's eventAdditionalDuration). */
  eventAdditionalDurationMs: 5,
};

/** What the estimator reads of the serving state, per resource. */
export interface WorkEstimatorSources {
  /** Objects of the resource (the watch cache's count), undefined when unknown. */
  objectCount(info: RequestInfo): number | undefined;
  /** Watches open on the resource. */
  watcherCount(info: RequestInfo): number;
}

const single = (): WorkEstimate => ({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
const mutatingVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export function estimateWork(
  info: RequestInfo,
  query: URLSearchParams,
  sources: WorkEstimatorSources,
  c = workEstimatorConfig
): WorkEstimate {
  if (!info.isResourceRequest) return single();
  if (info.verb === 'list' || info.verb === 'watch') {
    const stored = sources.objectCount(info);
    // Unknown count: the most a list may cost (upstream does the same when the count is missing).
    if (stored === undefined)
      return { initialSeats: c.maximumSeats, finalSeats: 0, additionalLatencyMs: 0 };
    const limit = Number(query.get('limit') ?? 0);
    const selective = !!query.get('labelSelector') || !!query.get('fieldSelector');
    // Served from the watch cache, a list walks every object; with a limit and no selector only
    // the page (upstream doubles it for the storage read).
    const objects =
      info.verb === 'watch' || selective || !(limit > 0 && limit < stored) ? stored : 2 * limit;
    const seats = Math.ceil(objects / c.objectsPerSeat);
    return {
      initialSeats: Math.min(c.maximumSeats, Math.max(c.minimumSeats, seats)),
      finalSeats: 0,
      additionalLatencyMs: 0,
    };
  }
  if (mutatingVerbs.has(info.verb)) {
    const watchers = sources.watcherCount(info);
    if (watchers === 0) return single();
    let finalSeats = Math.ceil(watchers / c.watchesPerSeat);
    let additionalLatencyMs = c.eventAdditionalDurationMs;
    if (finalSeats > c.maximumSeats) {
      // Fewer seats held longer: the same seat-seconds.
      additionalLatencyMs = (additionalLatencyMs * finalSeats) / c.maximumSeats;
      finalSeats = c.maximumSeats;
    }
    return { initialSeats: 1, finalSeats, additionalLatencyMs };
  }
  return single();
}
