// The real kubectl, as the e2e tests run it: a kubeconfig, a discovery cache of the test's own,
// a 30 s limit, and the exit code instead of an exception.
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
