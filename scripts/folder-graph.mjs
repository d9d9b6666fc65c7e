// Folder-level import graph of every workspace: which folder of a package's src/ imports which,
// and the cycles among folders (a strongly connected component of two folders or more). File
// cycles are import-x/no-cycle's job; this shows the layers. Tests are left out: a test may reach
// across layers to set things up, the layers are about production code.
//
//   node scripts/folder-graph.mjs [--edges] [--depth N] [workspace...]
//
// --edges lists every folder edge with one file import that makes it; --depth N groups folders
// at N levels under src/ (default: the file's own folder). Exits 1 when a cycle is found.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const showEdges = args.includes('--edges');
const depthAt = args.indexOf('--depth');
const depth = depthAt >= 0 ? Number(args[depthAt + 1]) : Infinity;
const named = args.filter((a, i) => !a.startsWith('--') && (depthAt < 0 || i !== depthAt + 1));
const workspaces = named.length
  ? named
  : JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')
      ? [p]
      : [];
  });
}

// Relative specifiers of static and dynamic imports and re-exports, `import type` included.
const importRe = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function folderOf(src, file) {
  const parts = relative(src, dirname(file)).split(sep).filter(Boolean);
  return parts.slice(0, depth).join('/') || '.';
}

// Tarjan's strongly connected components.
function components(nodes, edges) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) !== idx.get(v)) return;
    const c = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1) out.push(c.sort());
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return out;
}

let found = 0;
for (const ws of workspaces) {
  const src = join(root, ws, 'src');
  let files;
  try {
    files = sources(src);
  } catch {
    continue;
  }
  const edges = new Map(); // from folder -> to folder -> an example "file -> import"
  for (const file of files) {
    const from = folderOf(src, file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(importRe)) {
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(src + sep)) continue;
      const to = folderOf(src, target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${relative(src, file)} -> ${spec}`);
    }
  }
  const nodes = [
    ...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]),
  ];
  const cycles = components(nodes.sort(), edges);
  if (showEdges)
    for (const [from, tos] of [...edges].sort())
      for (const [to, why] of [...tos].sort()) console.log(`${ws}: ${from} -> ${to}  (${why})`);
  for (const c of cycles) {
    found++;
    console.log(`${ws}: cycle among ${c.join(', ')}`);
    for (const a of c)
      for (const [b, why] of edges.get(a) ?? [])
        if (c.includes(b)) console.log(`    ${a} -> ${b}  (${why})`);
  }
}
if (found) process.exitCode = 1;
else console.log('no folder cycles');
