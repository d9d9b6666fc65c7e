// The credentials presented to a webhook, from the kubeconfig-form credential file
// (kubeConfigFile). Upstream: k8s.io/apiserver/pkg/util/webhook/authentication.go
// (defaultAuthenticationInfoResolver.clientConfig: exact name, `*.`-prefixed wildcards from the
// most specific, the same again without a default port 443, then `*`).
import { dirname } from 'node:path';

import { parse as parseYaml } from 'yaml';

import { kubeconfigUser } from './kubeconfig-entries.js';

/** What a call presents: a client certificate, a bearer token or basic credentials. */
export interface AuthenticationInfo {
  certPem?: string;
  keyPem?: string;
  token?: string;
  username?: string;
  password?: string;
}

export interface AuthenticationInfoResolver {
  /** For `clientConfig.service`: `<name>.<namespace>.svc:<port>`. */
  forService(name: string, namespace: string, port: number): AuthenticationInfo;
  /** For `clientConfig.url`: its `host:port` (port 443 when the URL has none). */
  forHostPort(hostPort: string): AuthenticationInfo;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A user entry's credentials, with the certificate and key as PEM text. */
function readUser(
  user: Record<string, unknown>,
  where: string,
  baseDir: string
): AuthenticationInfo {
  const { cert, key, ...rest } = kubeconfigUser(user, where, baseDir);
  return cert && key
    ? { ...rest, certPem: cert.toString('utf8'), keyPem: key.toString('utf8') }
    : rest;
}

/** Parses the credential file's text (YAML or JSON kubeconfig); relative paths from `path`. */
export function parseCredentialFile(text: string, path: string): Map<string, AuthenticationInfo> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new Error(`kubeConfigFile ${path}: ${(err as Error).message}`);
  }
  if (!isRecord(doc)) throw new Error(`kubeConfigFile ${path}: not a kubeconfig object`);
  const users = doc['users'] ?? [];
  if (!Array.isArray(users)) throw new Error(`kubeConfigFile ${path}: users: must be a list`);
  const out = new Map<string, AuthenticationInfo>();
  for (const [i, entry] of users.entries()) {
    const where = `kubeConfigFile ${path}: users[${i}]`;
    if (!isRecord(entry)) throw new Error(`${where}: must be an object`);
    const name = entry['name'];
    if (typeof name !== 'string' || name === '') throw new Error(`${where}.name: Required value`);
    if (out.has(name)) throw new Error(`${where}.name: Duplicate value: ${JSON.stringify(name)}`);
    const user = entry['user'] ?? {};
    if (!isRecord(user)) throw new Error(`${where}.user: must be an object`);
    out.set(name, readUser(user, `${where}.user`, dirname(path)));
  }
  return out;
}

/** The resolver over a parsed credential file (an empty map: no credentials for anyone). */
export function newAuthenticationInfoResolver(
  users: ReadonlyMap<string, AuthenticationInfo>
): AuthenticationInfoResolver {
  const lookup = (target: string): AuthenticationInfo | undefined => {
    const exact = users.get(target);
    if (exact) return exact;
    const steps = target.split('.');
    for (let i = 1; i < steps.length; i++) {
      const wild = users.get(`*.${steps.slice(i).join('.')}`);
      if (wild) return wild;
    }
    return undefined;
  };
  const resolve = (target: string): AuthenticationInfo => {
    const found = lookup(target);
    if (found) return found;
    if (target.endsWith(':443')) {
      const bare = lookup(target.slice(0, -':443'.length));
      if (bare) return bare;
    }
    return users.get('*') ?? {};
  };
  return {
    forService: (name, namespace, port) => resolve(`${name}.${namespace}.svc:${port}`),
    forHostPort: (hostPort) => resolve(hostPort),
  };
}
