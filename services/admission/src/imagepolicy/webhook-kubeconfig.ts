// The kubeconfig naming a webhook backend (k8s.io/apiserver/pkg/util/webhook LoadKubeconfig over
// client-go clientcmd): the current context's cluster (server, certificate-authority or
// certificate-authority-data, insecure-skip-tls-verify, tls-server-name) and user (client
// certificate and key, file or data; token or tokenFile; username and password). Relative paths
// are relative to the kubeconfig's directory, as clientcmd resolves them (the entries are read
// by ../kubeconfig/, shared with the webhooks' credential file). `loadKubeconfig` of
// `@orch/apimachinery/client` is not used: it knows only client certificates, reads relative
// paths from the working directory and makes the CA mandatory.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { parse as parseYaml } from 'yaml';

import {
  kubeconfigData,
  kubeconfigString as str,
  kubeconfigUser,
} from '@orch/apimachinery/webhook';

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

/** Loads the current context of a kubeconfig (or its only context). Throws naming the field. */
export function loadWebhookKubeconfig(path: string): WebhookClientConfig {
  const base = dirname(path);
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

  const config: WebhookClientConfig = {
    server: url,
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
  };
  const ca = kubeconfigData(cluster, 'certificate-authority', cAt, base);
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
  Object.assign(config, kubeconfigUser(user, uAt, base));
  return config;
}
