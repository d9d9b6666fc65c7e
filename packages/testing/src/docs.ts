// Checks that keep the repository's documentation true where a machine can tell: the flags a
// service registers against its section of docs/operating.md, and the comments of the sources
// against the history they must not carry (commit messages carry it).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is packages/testing/{src,dist}/docs.*). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A file of the repository as text, by its path from the root. */
export function readRepoFile(path: string): string {
  return readFileSync(join(repoRoot, path), 'utf8');
}

/**
 * The section of a Markdown page under the heading `## <title>`, up to the next `## ` heading
 * (its `###` subsections included); undefined when the page has no such heading.
 */
export function markdownSection(markdown: string, title: string): string | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/**
 * The flags of `flags` (a service's flag set, keyed by name without dashes) that its section
 * `## <service>` of docs/operating.md does not name as `` `--name` ``; every flag when the
 * section is missing.
 */
export function undocumentedFlags(service: string, flags: Record<string, unknown>): string[] {
  const section = markdownSection(readRepoFile('docs/operating.md'), service) ?? '';
  return Object.keys(flags)
    .filter((name) => !section.includes(`\`--${name}\``))
    .map((name) => `--${name}`);
}
