// The comments of the repository's sources, read with the TypeScript parser (so that `//` in a
// string, a template or a regular expression is not taken for one), and the rule that none of
// them carries the history of the work (the tracker's numbers, the names of the stages the work
// was done in). Comments say why; commit messages say when and for what.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './docs.js';

/** What a comment must not name, each with the reason printed beside a finding. */
export const historyInComments: readonly { pattern: RegExp; names: string }[] = [
  { pattern: /\bissues? #?\d+/i, names: 'an issue number' },
  { pattern: /(?<![\w&#/'"`$])#\d+\b/, names: 'an issue number' },
  { pattern: /\bstop \d+\b/i, names: 'a stop of the work' },
  {
    pattern: /\b(?:this|that|earlier|previous|last|work) sessions?\b|\bsession \d+/i,
    names: 'a work session',
  },
  { pattern: /\bwork batch(?:es)?\b|\bbatch(?:es)? of work\b/i, names: 'a work batch' },
  { pattern: /(?<![\w./-])(?:wl|plat)(?![\w.-])/i, names: 'a work batch' },
];

/** One comment line naming history: `path:line: text (what it names)`. */
export interface CommentFinding {
  path: string;
  line: number;
  text: string;
  names: string;
}

/** The source files under `dirs` (relative to the root): .ts and .mjs, no build outputs or generated code. */
export function sourceFiles(dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || ['node_modules', 'dist', 'generated'].includes(e.name)) {
        continue;
      }
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.(?:ts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const d of dirs) walk(join(repoRoot, d));
  return out.sort();
}

/** Every comment of a source text with the line it starts on (1-based). */
export function comments(text: string, fileName = 'x.ts'): { line: number; text: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const seen = new Set<number>();
  const out: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind < ts.SyntaxKind.FirstNode || node.kind === ts.SyntaxKind.EndOfFileToken) {
      // A comment after code on its line is the previous token's trailing trivia; the others
      // lead the next token.
      for (const r of [
        ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
        ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
      ]) {
        if (seen.has(r.pos)) continue;
        seen.add(r.pos);
        const line = source.getLineAndCharacterOfPosition(r.pos).line + 1;
        out.push({ line, text: text.slice(r.pos, r.end) });
      }
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return out.sort((a, b) => a.line - b.line);
}

/** The comment lines of the files that name an issue, a batch or a session. */
export function historyComments(files: readonly string[]): CommentFinding[] {
  const findings: CommentFinding[] = [];
  for (const file of files) {
    const path = relative(repoRoot, file);
    const text = readFileSync(file, 'utf8');
    // Parsing is the slow part: only a file whose text matches a pattern anywhere is parsed.
    if (!historyInComments.some((h) => h.pattern.test(text))) continue;
    for (const c of comments(text, file)) {
      c.text.split('\n').forEach((line, i) => {
        const hit = historyInComments.find((h) => h.pattern.test(line));
        if (hit) findings.push({ path, line: c.line + i, text: line.trim(), names: hit.names });
      });
    }
  }
  return findings;
}
