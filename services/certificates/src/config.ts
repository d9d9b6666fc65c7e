// The certificates service's dependencies, built from its completed options: the authorizer
// client its plugins ask (mutual TLS with its serving certificate), the client of the public API
// its controllers act through (--kubeconfig), the metrics registry. Nothing listens yet
// (server.ts wires, run() serves).
import type { Registry } from 'prom-client';
import type { Attributes, AuthorizationResult } from '@orch/apimachinery/auth';
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';
import { AuthorizerClient } from '@orch/apimachinery/grpc';
import { clientCredentials } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import { newRegistry } from '@orch/component-base/metrics';
import type { CompletedCertificatesOptions } from './options.js';

export interface CertificatesConfig {
  options: CompletedCertificatesOptions;
  log: Logger;
  registry: Registry;
  /** What CertificateApproval and CertificateSigning ask. */
  authorize(a: Attributes): Promise<AuthorizationResult>;
  /** The public API with this service's identity; undefined without --kubeconfig. */
  api: RestClient | undefined;
  close(): Promise<void>;
}

export function newCertificatesConfig(
  options: CompletedCertificatesOptions,
  log: Logger
): CertificatesConfig {
  const registry = newRegistry('certificates');
  const authorizer = new AuthorizerClient({
    address: options.authorizerAddress,
    credentials: clientCredentials(options.serving.tls),
  });
  const api = options.kubeconfig ? new RestClient(loadKubeconfig(options.kubeconfig)) : undefined;
  return {
    options,
    log,
    registry,
    authorize: (a) => authorizer.authorize(a),
    api,
    async close() {
      api?.close();
      authorizer.close();
    },
  };
}
