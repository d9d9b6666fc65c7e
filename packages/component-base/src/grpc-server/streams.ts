// What a server's bidi streams of calls share (storage's Calls, the admission service's
// AdmitCalls): each request answered once its call ends, in whatever order, and the stream's end.
import type { ServerDuplexStream } from '@grpc/grpc-js';

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

/**
 * Serves a stream of calls: `answer` runs each request and resolves to its answer (a failed call
 * answered with its error: it does not reject). The stream ends when the caller ends it, or when
 * the server begins to stop, once the calls pending on it are answered (the callers open their
 * next one elsewhere), so a graceful stop is not held by open streams.
 */
export function serveCalls<Req, Res>(
  call: ServerDuplexStream<Req, Res>,
  stopping: AbortSignal | undefined,
  answer: (request: Req) => Promise<Res>
): void {
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
  onHalfClose(call as ServerDuplexStream<unknown, unknown>, stopping, () => {
    halfClosed = true;
    endIfDone();
  });
}
