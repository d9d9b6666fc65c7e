// The controllers' dependencies: a client of the public API with this component's identity.
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';
import type { RestConfig } from '@orch/apimachinery/client';
import type { Logger } from '@orch/component-base/logs';
import type { CompletedControllersOptions } from './options.js';

export interface ControllersConfig {
  options: CompletedControllersOptions;
  log: Logger;
  client: RestClient;
  /** The kubeconfig's server and credentials, for the controllers' own clients. */
  restConfig: RestConfig;
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
  return { options, log, client, restConfig, close: () => client.close() };
}
