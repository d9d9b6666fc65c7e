// What a server's bidi streams of calls share: their end.
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
