// The kubeconfig naming a webhook backend (k8s.io/apiserver/pkg/util/webhook LoadKubeconfig over
// client-go clientcmd): the current context's cluster (server, certificate-authority or
// certificate-authority-data, insecure-skip-tls-verify, tls-server-name) and user (client
// certificate and key, file or data; token or tokenFile; username and password). Relative paths
// are relative to the kubeconfig's directory, as clientcmd resolves them. `loadKubeconfig` of
// `@orch/apimachinery/client` is not used: it knows only client certificates, reads relative
// paths from the working directory and makes the CA mandatory.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

import { parse as parseYaml } from 'yaml';

/** How to reach and authenticate to the backend. */
export interface WebhookClientConfig {
  /** The URL requests are posted to (the cluster's server). */
  server: URL;
  /** CA bundle for the server certificate; the host's roots when absent. */
  ca?: Buffer;
  insecureSkipTlsVerify: boolean;
  /** SNI and certificate name to check instead of the URL's host. */
  serverName?: string;
  cert?: Buffer;
  key?: Buffer;
  token?: string;
  username?: string;
  password?: string;
}

type Entry = Record<string, unknown>;

function isObject(v: unknown): v is Entry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function named(list: unknown, name: string, what: string, at: string): Entry {
  const found = Array.isArray(list)
    ? (list as unknown[]).find((e) => isObject(e) && e['name'] === name)
    : undefined;
  if (!isObject(found)) throw new Error(`${at}: ${what} "${name}" not found`);
  const body = found[what === 'cluster' ? 'cluster' : what === 'user' ? 'user' : 'context'];
  if (!isObject(body)) throw new Error(`${at}: ${what} "${name}" has no ${what} field`);
  return body;
}

function str(e: Entry, key: string, at: string): string | undefined {
  const v = e[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new Error(`${at}.${key}: must be a string`);
  return v;
}

/** Loads the current context of a kubeconfig (or its only context). Throws naming the field. */
export function loadWebhookKubeconfig(path: string): WebhookClientConfig {
  const base = dirname(path);
  const resolve = (p: string): string => (isAbsolute(p) ? p : join(base, p));
  const at = `kubeconfig ${path}`;
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${at}: ${(err as Error).message}`);
  }
  if (!isObject(doc)) throw new Error(`${at}: not a kubeconfig (expected an object)`);

  const contexts = Array.isArray(doc['contexts']) ? (doc['contexts'] as unknown[]) : [];
  let contextName = typeof doc['current-context'] === 'string' ? doc['current-context'] : '';
  if (!contextName) {
    const only = contexts.length === 1 && isObject(contexts[0]) ? contexts[0]['name'] : undefined;
    if (typeof only !== 'string') {
      throw new Error(
        `${at}: current-context: Required value: set it, or give exactly one context`
      );
    }
    contextName = only;
  }
  const context = named(contexts, contextName, 'context', at);
  const clusterName = str(context, 'cluster', `${at}: contexts[${contextName}].context`);
  if (!clusterName)
    throw new Error(`${at}: contexts[${contextName}].context.cluster: Required value`);
  const cluster = named(doc['clusters'], clusterName, 'cluster', at);
  const userName = str(context, 'user', `${at}: contexts[${contextName}].context`);
  const user = userName ? named(doc['users'], userName, 'user', at) : {};

  const cAt = `${at}: clusters[${clusterName}].cluster`;
  const server = str(cluster, 'server', cAt);
  if (!server) throw new Error(`${cAt}.server: Required value`);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`${cAt}.server: Invalid value: "${server}": not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`${cAt}.server: Invalid value: "${server}": scheme must be https or http`);
  }

  const readData = (e: Entry, key: string, eAt: string): Buffer | undefined => {
    const data = str(e, `${key}-data`, eAt);
    const file = str(e, key, eAt);
    if (data && file) {
      throw new Error(`${eAt}: ${key}-data and ${key} are both set; set one`);
    }
    if (data) return Buffer.from(data, 'base64');
    if (!file) return undefined;
    try {
      return readFileSync(resolve(file));
    } catch (err) {
      throw new Error(`${eAt}.${key}: ${(err as Error).message}`);
    }
  };

  const config: WebhookClientConfig = {
    server: url,
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
  };
  const ca = readData(cluster, 'certificate-authority', cAt);
  if (ca) {
    if (config.insecureSkipTlsVerify) {
      throw new Error(
        `${cAt}: insecure-skip-tls-verify may not be set together with a certificate authority`
      );
    }
    config.ca = ca;
  }
  const serverName = str(cluster, 'tls-server-name', cAt);
  if (serverName) config.serverName = serverName;

  const uAt = `${at}: users[${userName ?? ''}].user`;
  const cert = readData(user, 'client-certificate', uAt);
  const key = readData(user, 'client-key', uAt);
  if (cert && !key) throw new Error(`${uAt}.client-key: Required value with client-certificate`);
  if (key && !cert) throw new Error(`${uAt}.client-certificate: Required value with client-key`);
  if (cert && key) {
    config.cert = cert;
    config.key = key;
  }
  let token = str(user, 'token', uAt);
  const tokenFile = str(user, 'tokenFile', uAt);
  if (!token && tokenFile) {
    try {
      token = readFileSync(resolve(tokenFile), 'utf8').trim();
    } catch (err) {
      throw new Error(`${uAt}.tokenFile: ${(err as Error).message}`);
    }
  }
  const username = str(user, 'username', uAt);
  const password = str(user, 'password', uAt);
  if (token && (username || password)) {
    throw new Error(`${uAt}: more than one authentication method found: token and basic auth`);
  }
  if (token) config.token = token;
  if (username || password) {
    config.username = username ?? '';
    config.password = password ?? '';
  }
  return config;
}
