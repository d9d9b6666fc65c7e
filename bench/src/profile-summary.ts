// Where the time goes, from the V8 CPU profiles that BENCH_CPU_PROF makes the services write:
// each process's busy time (idle excluded) split into the layers it passes through, and its
// heaviest functions. Printed at the end of `make bench`, so a missed target comes with its profile.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The layer a frame belongs to; undefined for idle. */
function layerOf(url: string, fn: string): string | undefined {
  if (fn === '(idle)') return undefined;
  if (fn === '(garbage collector)') return 'garbage collection';
  if (fn === '(program)') return 'V8 (program)';
  if (/node:internal\/modules|cjs-module-lexer|bootstrap\/realm/.test(url))
    return 'module loading (start-up)';
  if (/@grpc|protobufjs|proto-loader|node:internal\/http2/.test(url))
    return 'gRPC (grpc-js, protobuf, http2)';
  if (/etcd3|cockatiel/.test(url)) return 'etcd3 client library';
  if (/_tls_|node:tls|crypto/.test(url)) return 'TLS and crypto';
  if (/_http_|node:http\b/.test(url)) return 'HTTP/1.1 server';
  if (
    /\/(express|router|body-parser|raw-body|on-finished|finalhandler|accepts|type-is|content-type|negotiator)\//.test(
      url
    )
  )
    return 'express and middleware';
  if (/prom-client/.test(url)) return 'metrics (prom-client)';
  if (/\/nats\//.test(url)) return 'NATS client';
  if (/\/(services|packages)\//.test(url) && !url.includes('node_modules')) return 'orch code';
  return 'Node streams, events, sockets, buffers';
}

export function summarizeProfile(file: string, topFunctions = 6): string[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const layers = new Map<string, number>();
  const fns = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const cf = byId.get(p.samples[i]!)!.callFrame;
    const layer = layerOf(cf.url, cf.functionName);
    if (!layer) continue;
    const dt = p.timeDeltas[i] ?? 0;
    busy += dt;
    layers.set(layer, (layers.get(layer) ?? 0) + dt);
    if (!layer.startsWith('V8') && !layer.startsWith('garbage')) {
      const name = `${cf.functionName || '(anonymous)'} ${cf.url.replace(/.*\/(node_modules|services|packages)\//, '')}:${cf.lineNumber + 1}`;
      fns.set(name, (fns.get(name) ?? 0) + dt);
    }
  }
  const pctOf = (t: number): string => `${((100 * t) / busy).toFixed(0)}%`;
  const top = <K>(m: Map<K, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    `busy ${(busy / 1e6).toFixed(1)} s: ` +
      top(layers, 9)
        .map(([k, t]) => `${k} ${pctOf(t)}`)
        .join(', '),
    `heaviest functions (self): ` +
      top(fns, topFunctions)
        .map(([k, t]) => `${k} ${pctOf(t)}`)
        .join('; '),
  ];
}

/** The summaries of every profile in `dir`, named by the process whose pid wrote it. */
export function summarizeProfiles(dir: string, names: Map<number, string>): string[] {
  const out: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()) {
    const name = names.get(Number(/^CPU\.\d+\.\d+\.(\d+)\./.exec(file)?.[1]));
    if (!name) continue; // a profile from another run
    const [layers, fns] = summarizeProfile(join(dir, file));
    out.push(`profile ${name}: ${layers}`, `profile ${name}: ${fns}`);
  }
  return out;
}
