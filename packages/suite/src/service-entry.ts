// The file each Node service starts from: its bundle, services/<name>/dist/main.bundle.js, which
// scripts/bundle.mjs builds from the compiled entry point (dist/main.js) and every module it
// imports. Beside the bundle, main.bundle.inputs.json lists those modules (paths relative to
// the repository), so that a bundle older than one of them is found stale instead of run.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The services built from this repository, in the order a suite starts them. */
export const nodeServices = [
  'storage',
  'authorizer',
  'admission',
  'certificates',
  'gateway',
  'controllers',
] as const;
export type NodeService = (typeof nodeServices)[number];

/** The bundle a service starts from. */
export function serviceEntry(repo: string, service: NodeService): string {
  return join(repo, 'services', service, 'dist', 'main.bundle.js');
}

/** The list of the modules a service's bundle holds, written with it. */
export function bundleInputsFile(repo: string, service: NodeService): string {
  return join(repo, 'services', service, 'dist', 'main.bundle.inputs.json');
}

/**
 * Why a service's bundle cannot be run as the current build: missing, or older than a module
 * it was built from (a `tsc --build` since, without scripts/bundle.mjs). undefined when fresh.
 */
export function bundleStaleness(repo: string, service: NodeService): string | undefined {
  const bundle = serviceEntry(repo, service);
  let built: number;
  let inputs: string[];
  try {
    built = statSync(bundle).mtimeMs;
    inputs = JSON.parse(readFileSync(bundleInputsFile(repo, service), 'utf8')) as string[];
  } catch {
    return `${bundle} is missing`;
  }
  for (const input of inputs) {
    let changed: number;
    try {
      changed = statSync(join(repo, input)).mtimeMs;
    } catch {
      return `${input}, bundled in ${bundle}, is gone`;
    }
    if (changed > built) return `${bundle} is older than ${input}`;
  }
  return undefined;
}

/**
 * Throws when a service's bundle is missing or stale, naming the command that builds it:
 * a test must not run yesterday's code. Checked once per process and repository.
 */
export function assertBundlesFresh(repo: string): void {
  if (checked.has(repo)) return;
  const stale = nodeServices.map((s) => bundleStaleness(repo, s)).filter((r) => r !== undefined);
  if (stale.length > 0) {
    throw new Error(
      `the services' bundles are not built from the current sources (${stale.join('; ')}): ` +
        'run `make build`, or `node scripts/bundle.mjs` after `npx tsc --build`'
    );
  }
  checked.add(repo);
}
const checked = new Set<string>();
