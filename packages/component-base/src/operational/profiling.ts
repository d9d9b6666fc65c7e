// CPU profiles and heap snapshots of the running process through Node's inspector (the
// counterparts of Go's /debug/pprof/profile and /debug/pprof/heap): a .cpuprofile JSON that
// Chrome DevTools and speedscope open, and a .heapsnapshot streamed in chunks.
import { Session } from 'node:inspector/promises';

/** Upstream's default and a ceiling that keeps a forgotten request from profiling for ever. */
export const defaultProfileSeconds = 30;
export const maxProfileSeconds = 300;

/** Profiles the CPU for `seconds` (aborted early by `signal`); resolves to the profile. */
export async function cpuProfile(seconds: number, signal?: AbortSignal): Promise<object> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, seconds * 1000);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const { profile } = await session.post('Profiler.stop');
    return profile;
  } finally {
    session.disconnect();
  }
}

/** Takes a heap snapshot, handing each chunk of its JSON to `write` in order. */
export async function heapSnapshot(write: (chunk: string) => void): Promise<void> {
  const session = new Session();
  session.connect();
  try {
    session.on('HeapProfiler.addHeapSnapshotChunk', (m) => write(m.params.chunk));
    await session.post('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    session.disconnect();
  }
}
