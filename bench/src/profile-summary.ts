// Where the time goes, from the V8 CPU profiles that BENCH_CPU_PROF makes the services write:
// each process's busy time (idle excluded) split into the layers it passes through, orch's own
// code split by the module it is in (a stage of the request pipeline: fieldmanager, admission,
// negotiation...), and its heaviest functions; for the whole run and for each measured window
// (cpu.ts records them). The services run as bundles: each frame is mapped back to its source
// through the bundle's source map, so that a library bundled in is counted as that library.
// Printed at the end of `make bench`, so a missed target comes with its profile.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MeasuredWindow } from './cpu.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A frame as the summary counts it: its layer, and for orch code its module. */
interface Place {
  layer: string;
  module?: string;
  fn: string;
}

const orchCode = 'orch code';

/** The layer of a source path (a node: builtin, a library, orch's own); undefined for idle. */
function layerOf(path: string, fn: string): string | undefined {
  if (fn === '(idle)') return undefined;
  if (fn === '(garbage collector)') return 'garbage collection';
  if (fn === '(program)') return 'V8 (program)';
  if (/node:internal\/modules|cjs-module-lexer|bootstrap\/realm/.test(path))
    return 'module loading (start-up)';
  if (/@grpc|protobufjs|proto-loader|node:internal\/http2/.test(path))
    return 'gRPC (grpc-js, protobuf, http2)';
  if (/etcd3|cockatiel/.test(path)) return 'etcd3 client library';
  if (/_tls_|node:tls|crypto/.test(path)) return 'TLS and crypto';
  if (/_http_|node:http\b/.test(path)) return 'HTTP/1.1 server';
  if (/prom-client/.test(path)) return 'metrics (prom-client)';
  if (/\/nats\//.test(path)) return 'NATS client';
  if (/node_modules\//.test(path)) return 'other libraries';
  if (/(^|\/)(services|packages)\/|^\.\.\/src\//.test(path)) return orchCode;
  return 'Node streams, events, sockets, buffers';
}

/**
 * The module of an orch source path: `<package>/<directory>` for a shared package
 * (apimachinery/schema-model), the directory under the service's src/ for its own code
 * (fieldmanager, admission/service), the file for one at the top of src/.
 */
function moduleOf(path: string): string {
  const pkg = /packages\/([^/]+)\/(?:src|dist)\/(.+)$/.exec(path);
  if (pkg) return `${pkg[1]}/${dirOf(pkg[2]!)}`;
  const own = /(?:services\/[^/]+\/)?(?:^\.\.\/)?src\/(.+)$/.exec(path);
  return own ? dirOf(own[1]!) : path;
}

/** Up to two directories of a path under src/, or its file name when it has none. */
function dirOf(rest: string): string {
  const parts = rest.split('/');
  return parts.length === 1
    ? parts[0]!.replace(/\.[jt]s$/, '')
    : parts.slice(0, -1).slice(0, 2).join('/');
}

/** Maps a profile's frames back to their sources, one source map per bundle. */
class Frames {
  readonly #maps = new Map<string, SourceMap | undefined>();

  place(cf: CallFrame): Place {
    let path = cf.url;
    let line = cf.lineNumber + 1;
    const map = this.#mapOf(cf.url);
    if (map) {
      const entry = map.findEntry(cf.lineNumber, cf.columnNumber) as {
        originalSource?: string;
        originalLine?: number;
      };
      if (!entry.originalSource)
        return { layer: orchCode, module: '(bundle code without a source)', fn: cf.functionName };
      path = entry.originalSource;
      line = (entry.originalLine ?? 0) + 1;
    }
    const layer = layerOf(path, cf.functionName) ?? '';
    const where = path
      .replace(/.*\/(node_modules|services|packages)\//, '')
      .replace(/^(\.\.\/)+/, '');
    return {
      layer,
      ...(layer === orchCode ? { module: moduleOf(path) } : {}),
      fn: `${cf.functionName || '(anonymous)'} ${where}:${line}`,
    };
  }

  #mapOf(url: string): SourceMap | undefined {
    if (!url.endsWith('.bundle.js')) return undefined;
    if (!this.#maps.has(url)) {
      const file = `${fileURLToPath(url)}.map`;
      this.#maps.set(
        url,
        existsSync(file)
          ? new SourceMap(
              JSON.parse(readFileSync(file, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]
            )
          : undefined
      );
    }
    return this.#maps.get(url);
  }
}

/** Busy µs by layer, orch module and function, over the samples in [fromUs, toUs]. */
class Tally {
  busy = 0;
  readonly layers = new Map<string, number>();
  readonly modules = new Map<string, number>();
  readonly fns = new Map<string, number>();

  add(place: Place, us: number): void {
    this.busy += us;
    bump(this.layers, place.layer, us);
    if (place.module) bump(this.modules, place.module, us);
    if (!place.layer.startsWith('V8') && !place.layer.startsWith('garbage'))
      bump(this.fns, place.fn, us);
  }

  lines(label: string, topFunctions: number, ops?: number): string[] {
    const share = (t: number): string => `${((100 * t) / this.busy).toFixed(0)}%`;
    const list = (m: Map<string, number>, n: number, sep: string): string =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, t]) => `${k} ${share(t)}`)
        .join(sep);
    // Samples are spaced on the wall clock: a process waiting for a core may still count as
    // busy, so a window's µs per operation can be above its CPU time when the cores are shared
    // (cpu.ts has the CPU time); the shares are what the profile tells.
    const busy = ops
      ? `${Math.round(this.busy / ops)} µs of samples per operation`
      : `busy ${(this.busy / 1e6).toFixed(1)} s`;
    return [
      `${label}: ${busy}: ${list(this.layers, 9, ', ')}`,
      `${label}: ${orchCode} by module: ${list(this.modules, 12, ', ')}`,
      `${label}: heaviest functions (self): ${list(this.fns, topFunctions, '; ')}`,
    ];
  }
}

function bump(m: Map<string, number>, k: string, v: number): void {
  m.set(k, (m.get(k) ?? 0) + v);
}

/**
 * A profile's summary for the whole run, then for each window the process was busy in (with
 * its sampled time per operation of the window).
 */
export function summarizeProfile(
  file: string,
  label: string,
  windows: readonly MeasuredWindow[] = [],
  topFunctions = 6
): string[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Frames();
  const places = new Map(p.nodes.map((n) => [n.id, frames.place(n.callFrame)]));
  const whole = new Tally();
  const tallies = windows.map(() => new Tally());
  // V8's profile clock and process.hrtime are both the monotonic clock, in µs here.
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    t += dt;
    const place = places.get(p.samples[i]!)!;
    if (!place.layer) continue;
    whole.add(place, dt);
    windows.forEach((w, k) => {
      if (t >= w.fromUs && t <= w.toUs) tallies[k]!.add(place, dt);
    });
  }
  const out = whole.lines(`profile ${label}`, topFunctions);
  windows.forEach((w, k) => {
    // A window this process spent under a µs per operation on says nothing.
    if (tallies[k]!.busy >= Math.max(1, w.ops))
      out.push(...tallies[k]!.lines(`profile ${label}, ${w.label}`, topFunctions, w.ops));
  });
  return out;
}

/** The summaries of every profile in `dir`, named by the process whose pid wrote it. */
export function summarizeProfiles(
  dir: string,
  names: Map<number, string>,
  windows: readonly MeasuredWindow[] = []
): string[] {
  const out: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()) {
    const name = names.get(Number(/^CPU\.\d+\.\d+\.(\d+)\./.exec(file)?.[1]));
    if (!name) continue; // a profile from another run
    out.push(...summarizeProfile(join(dir, file), name, windows));
  }
  return out;
}
