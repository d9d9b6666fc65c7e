// Source files over 600 lines must say why at their top: a line of their leading comment that
// says `Over 600 lines ...` and why. Tests and generated code may be long. Run by `make lint`; exits 1 on a long
// file without its reason. Split a file with a natural seam into files named after their main
// export rather than writing a reason.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const maxLines = 600;
const reason = /^\/\/.*\bOver 600 lines\b.*\S/i;

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function sources(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')
      ? [p]
      : [];
  });
}

let refused = 0;
for (const ws of workspaces) {
  for (const file of sources(join(root, ws, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines <= maxLines) continue;
    const lead = text.split('\n');
    const end = lead.findIndex((l) => !l.startsWith('//'));
    const leading = end < 0 ? lead : lead.slice(0, end);
    if (leading.some((l) => reason.test(l))) continue;
    const name = relative(root, file);
    console.error(
      `${name}: ${lines} lines, and no "Over 600 lines ..., why" in its leading comment`
    );
    refused++;
  }
}
if (refused) process.exitCode = 1;
