// API Priority and Fairness (k8s pkg/server/filters/priority-and-fairness.go): each request is
// classified by FlowSchema to a priority level and runs only when its level's fair queuing
// dispatches it; a full queue, a Reject level or a wait past the deadline is 429 with
// Retry-After. The matched schema's and level's UIDs are answered on every classified request.
// A watch is admitted for its initialisation (its estimated list cost) and releases its seats
// once its handler returns, which is once it streams: its initial events sent and its place in
// the cache taken (upstream's WatchInitialized signal, or the handler's return when storage never
// signals, as for a proxied watch). It is not held for its lifetime, nor until its first event:
// a watch from a resourceVersion on a quiet collection may write nothing for minutes.
import { anonymousUserInfo } from '@orch/apimachinery/auth';
import { newTooManyRequests } from '@orch/apimachinery/errors';
import type { ApfController, Admission } from '../flowcontrol/apf-controller.js';
import { estimateWork } from '../flowcontrol/work-estimator.js';
import type { WorkEstimatorSources } from '../flowcontrol/work-estimator.js';
import type { Handler } from '../http/handler.js';
import { requestUrl } from '../http/request-url.js';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { requestInfoFrom, userFrom } from '../request/context.js';

export const flowSchemaUIDHeader = 'X-Kubernetes-PF-FlowSchema-UID';
export const priorityLevelUIDHeader = 'X-Kubernetes-PF-PriorityLevel-UID';

export interface PriorityAndFairnessConfig {
  controller: ApfController;
  sources: WorkEstimatorSources;
  /** How long a request may wait in its queue (upstream: a quarter of the request timeout). */
  queueWaitMs: number;
}

const tooManyRequests = newTooManyRequests('Too many requests, please try again later.', 1);

export const withPriorityAndFairness =
  (next: Handler, c: PriorityAndFairnessConfig): Handler =>
  async (req, res) => {
    const info = requestInfoFrom(req);
    if (!info) return next(req, res);
    const user = userFrom(req) ?? anonymousUserInfo();
    const query = requestUrl(req).searchParams;
    const work = estimateWork(info, query, c.sources);
    const admission = c.controller.admit(
      { info, user },
      work,
      `${user.name} ${req.method} ${info.path}`
    );
    const { flowSchema, level } = admission.classification;
    res.setHeader(flowSchemaUIDHeader, flowSchema.metadata?.uid ?? '');
    res.setHeader(priorityLevelUIDHeader, level.config.metadata?.uid ?? '');
    if (admission.kind === 'reject') return writeErrorNegotiated(req, res, tooManyRequests);
    if (admission.kind === 'wait' && !(await waitForDispatch(admission, req, res, c.queueWaitMs)))
      return res.writableEnded || res.destroyed
        ? undefined
        : writeErrorNegotiated(req, res, tooManyRequests);
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      c.controller.finish(admission);
    };
    res.once('close', finish);
    try {
      await next(req, res);
    } finally {
      if (res.writableEnded || info.verb === 'watch') finish();
    }
  };

/** Waits for the queue's decision; the deadline or the client leaving takes the request out. */
async function waitForDispatch(
  a: Extract<Admission, { kind: 'wait' }>,
  req: Parameters<Handler>[0],
  res: Parameters<Handler>[1],
  queueWaitMs: number
): Promise<boolean> {
  const timer = setTimeout(() => a.request.cancel('time-out'), queueWaitMs);
  const gone = (): void => a.request.cancel('cancelled');
  req.once('close', gone);
  res.once('close', gone);
  try {
    return await a.request.decision;
  } finally {
    clearTimeout(timer);
    req.off('close', gone);
    res.off('close', gone);
  }
}
