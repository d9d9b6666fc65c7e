// The controllers' dependencies: a client of the public API with this component's identity, and
// the cluster's CA bundle the root CA publisher and the token controller hand out.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';
import type { RestConfig } from '@orch/apimachinery/client';
import type { Logger } from '@orch/component-base/logs';
import { newRegistry } from '@orch/component-base/metrics';
import type { Registry } from 'prom-client';
import type { CompletedControllersOptions } from './options.js';
import { readTokenSigningKey } from './serviceaccount/legacy-token.js';
import type { TokenSigningKey } from './serviceaccount/legacy-token.js';

export interface ControllersConfig {
  options: CompletedControllersOptions;
  log: Logger;
  /** What the operational server's /metrics serves. */
  registry: Registry;
  client: RestClient;
  /** The kubeconfig's server and credentials, for the controllers' own clients. */
  restConfig: RestConfig;
  /** The CA bundle (PEM): --root-ca-file, else the kubeconfig's certificate authority. */
  rootCa: string;
  /** --service-account-private-key-file's key; undefined: no token controller. */
  tokenSigningKey: TokenSigningKey | undefined;
  close(): void;
}

export function newControllersConfig(
  options: CompletedControllersOptions,
  log: Logger
): ControllersConfig {
  // No bound on connections: each informer's watch holds one (the garbage collector has one per
  // resource), and requests must never wait behind them.
  const restConfig = loadKubeconfig(options.kubeconfig);
  const client = new RestClient(restConfig, { maxSockets: Infinity });
  const rootCa = options.rootCaFile ? readCa(options.rootCaFile) : restConfig.ca.toString('utf8');
  const tokenSigningKey = options.serviceAccountPrivateKeyFile
    ? readTokenSigningKey(options.serviceAccountPrivateKeyFile)
    : undefined;
  return {
    options,
    log,
    registry: newRegistry('controllers'),
    client,
    restConfig,
    rootCa,
    tokenSigningKey,
    close: () => client.close(),
  };
}

/** k8s readCA: the file, which must hold PEM certificates (certutil.ParseCertsPEM). */
export function readCa(file: string): string {
  try {
    const pem = readFileSync(file, 'utf8');
    const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
    if (!blocks) throw new Error('data does not contain any valid RSA or ECDSA certificates');
    for (const b of blocks) new X509Certificate(b);
    return pem;
  } catch (err) {
    throw new Error(`error parsing root-ca-file at ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}
