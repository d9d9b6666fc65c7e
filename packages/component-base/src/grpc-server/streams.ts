// What a server's bidi streams of calls share (storage's Calls, the admission service's
// AdmitCalls): each request answered once its call ends, in whatever order, and the stream's end.
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { toCallError } from '@orch/apimachinery/errors';
import type { Labels, UnaryHandlerOptions } from './unary-handler.js';

/** Runs `finish` once: at the caller's end of the stream, or when the server begins to stop. */
export function onHalfClose(
  call: ServerDuplexStream<unknown, unknown>,
  stopping: AbortSignal | undefined,
  finish: () => void
): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    finish();
  };
  call.on('end', once);
  stopping?.addEventListener('abort', once, { once: true });
  call.on('close', () => stopping?.removeEventListener('abort', once));
}

/** How a stream's calls are timed and gated: as the unary handlers' (unary-handler.ts). */
export interface CallsOptions<L extends string> extends UnaryHandlerOptions<L> {
  /** Aborts when the server begins to stop: the stream then ends once its calls are answered. */
  stopping?: AbortSignal;
}

/** A request's call: what answers it, under which oneof member, timed under which name. */
export interface RoutedCall {
  /** The answer's oneof member (`get`, `admit`). */
  member: string;
  /** The call's name in the latency histogram (`get`, `Admit`). */
  name: string;
  run(): Promise<unknown>;
}

/**
 * Serves a stream of calls, each request `{ id, <call> }` answered `{ id, <member>: answer }` or
 * `{ id, error }` once its call ends, in whatever order; the stream twin of unaryHandlers:
 * readiness first, then the call, its latency observed by name and gRPC code. `route` throws for a
 * request that names no call (answered with the error, not timed). The stream ends when the
 * caller ends it, or when the server begins to stop, once the calls pending on it are answered
 * (the callers open their next one elsewhere), so a graceful stop is not held by open streams.
 */
export function serveCalls<L extends string, Req extends { id: number }, Res>(
  call: ServerDuplexStream<Req, Res>,
  opts: CallsOptions<L>,
  route: (request: Req) => RoutedCall
): void {
  const answer = async (m: Req): Promise<Res> => {
    let routed: RoutedCall;
    try {
      routed = route(m);
    } catch (err) {
      return { id: m.id, error: toCallError(err) } as Res;
    }
    const end = opts.latency.startTimer({ [opts.label]: routed.name } as Labels<L>);
    try {
      const notReady = opts.notReady?.();
      if (notReady) throw notReady;
      const res = await routed.run();
      end({ code: 'OK' } as Labels<L>);
      return { id: m.id, [routed.member]: res } as Res;
    } catch (err) {
      const error = toCallError(err);
      end({ code: String(error.code) } as Labels<L>);
      return { id: m.id, error } as Res;
    }
  };
  let pending = 0;
  let halfClosed = false;
  const endIfDone = (): void => {
    if (halfClosed && pending === 0 && !call.cancelled) call.end();
  };
  call.on('data', (m: Req) => {
    pending++;
    void answer(m).then((res) => {
      if (!call.cancelled) call.write(res);
      pending--;
      endIfDone();
    });
  });
  onHalfClose(call as ServerDuplexStream<unknown, unknown>, opts.stopping, () => {
    halfClosed = true;
    endIfDone();
  });
}
