// The real kubectl, as the e2e tests run it: a kubeconfig, a discovery cache of the test's own,
// a 30 s limit, and the exit code instead of an exception.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runKubectl(
  kubeconfig: string,
  cacheDir: string,
  args: string[],
  input?: string,
  env?: NodeJS.ProcessEnv
): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      'kubectl',
      [`--kubeconfig=${kubeconfig}`, `--cache-dir=${cacheDir}`, ...args],
      { timeout: 30_000, ...(env ? { env } : {}) },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * `kubectl` (the result) and `ok` (stdout, asserting exit 0) over a kubeconfig read when called
 * (a suite's, set in before()) and a discovery cache of the test's own.
 */
export function kubectlFor(
  kubeconfig: () => string,
  cacheDir: string
): {
  kubectl: (args: string[], input?: string) => Promise<KubectlResult>;
  ok: (args: string[], input?: string) => Promise<string>;
} {
  const kubectl = (args: string[], input?: string) =>
    runKubectl(kubeconfig(), cacheDir, args, input);
  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  return { kubectl, ok };
}
