import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface WriteKubeconfigOptions {
  /** API server URL, e.g. `https://127.0.0.1:6443`. */
  server: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  /** Name of the user entry. Default `orch`. */
  user?: string;
  /** Name of the cluster entry, and of the context. Default `orch`. */
  cluster?: string;
}

/**
 * Writes a kubeconfig (mode 0600) with one cluster, user and context, the context current. The
 * CA, certificate and key are embedded as base64 `*-data` fields so the file works from any cwd.
 */
export async function writeKubeconfig(path: string, opts: WriteKubeconfigOptions): Promise<void> {
  const [ca, cert, key] = await Promise.all(
    [opts.caFile, opts.certFile, opts.keyFile].map(async (file) =>
      (await readFile(file)).toString('base64')
    )
  );
  const cluster = yamlString(opts.cluster ?? 'orch');
  const user = yamlString(opts.user ?? 'orch');
  const context = cluster;
  const text = `apiVersion: v1
kind: Config
clusters:
- name: ${cluster}
  cluster:
    server: ${yamlString(opts.server)}
    certificate-authority-data: ${ca ?? ''}
users:
- name: ${user}
  user:
    client-certificate-data: ${cert ?? ''}
    client-key-data: ${key ?? ''}
contexts:
- name: ${context}
  context:
    cluster: ${cluster}
    user: ${user}
current-context: ${context}
preferences: {}
`;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, { mode: 0o600 });
  await chmod(path, 0o600);
}

/** A plain YAML scalar when it is a simple name, else a double-quoted one (JSON is valid YAML). */
function yamlString(value: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(value) ? value : JSON.stringify(value);
}
