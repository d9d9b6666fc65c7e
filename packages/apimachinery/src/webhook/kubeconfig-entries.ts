// The parts of a kubeconfig that the outbound webhook clients read (the admission webhooks'
// credential file and ImagePolicyWebhook's backend kubeconfig), as client-go clientcmd reads
// them: a string field, a `<key>-data` (base64) or `<key>` (a file, relative to the
// kubeconfig's directory) pair, and a user's credentials (client certificate and key, token or
// tokenFile, username and password). Errors name the field.
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export type KubeconfigEntry = Record<string, unknown>;

/** A string field; undefined when absent or empty. */
export function kubeconfigString(
  e: KubeconfigEntry,
  key: string,
  where: string
): string | undefined {
  const v = e[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new Error(`${where}.${key}: must be a string`);
  return v;
}

/** `<key>-data` decoded, or the file `<key>` names; both set is an error, as clientcmd's. */
export function kubeconfigData(
  e: KubeconfigEntry,
  key: string,
  where: string,
  baseDir: string
): Buffer | undefined {
  const data = kubeconfigString(e, `${key}-data`, where);
  const file = kubeconfigString(e, key, where);
  if (data && file) throw new Error(`${where}: ${key}-data and ${key} are both set; set one`);
  if (data) return Buffer.from(data, 'base64');
  return file === undefined ? undefined : readKubeconfigFile(file, `${where}.${key}`, baseDir);
}

function readKubeconfigFile(path: string, field: string, baseDir: string): Buffer {
  try {
    return readFileSync(isAbsolute(path) ? path : join(baseDir, path));
  } catch (err) {
    throw new Error(`${field}: ${(err as Error).message}`);
  }
}

/** What a user entry presents: a client certificate, a bearer token or basic credentials. */
export interface KubeconfigUser {
  cert?: Buffer;
  key?: Buffer;
  token?: string;
  username?: string;
  password?: string;
}

/** A `users[].user` entry; `where` names it in errors. */
export function kubeconfigUser(
  user: KubeconfigEntry,
  where: string,
  baseDir: string
): KubeconfigUser {
  const out: KubeconfigUser = {};
  const cert = kubeconfigData(user, 'client-certificate', where, baseDir);
  const key = kubeconfigData(user, 'client-key', where, baseDir);
  const needsBoth = `${where}: a client certificate needs both a certificate and a key`;
  if (cert && !key)
    throw new Error(`${needsBoth} (client-key: Required value with client-certificate)`);
  if (key && !cert)
    throw new Error(`${needsBoth} (client-certificate: Required value with client-key)`);
  if (cert && key) {
    out.cert = cert;
    out.key = key;
  }
  let token = kubeconfigString(user, 'token', where);
  const tokenFile = kubeconfigString(user, 'tokenFile', where);
  if (token === undefined && tokenFile !== undefined) {
    token = readKubeconfigFile(tokenFile, `${where}.tokenFile`, baseDir).toString('utf8').trim();
  }
  const username = kubeconfigString(user, 'username', where);
  const password = kubeconfigString(user, 'password', where);
  if (token !== undefined && (username !== undefined || password !== undefined)) {
    throw new Error(
      `${where}: more than one authentication method found: token and username/password are exclusive`
    );
  }
  if (token !== undefined) out.token = token;
  if (username !== undefined || password !== undefined) {
    out.username = username ?? '';
    out.password = password ?? '';
  }
  return out;
}
