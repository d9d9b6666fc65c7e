// The certificates server: the gateway's checks of CertificateSigningRequest writes over gRPC
// (mutual TLS, gRPC health, metrics on --metrics-port). The constructor wires; run() builds the
// plugins, listens, then answers (SERVING) until its signal. Its controllers (approver,
// signers, cleaner, bootstrap signer, token cleaner) run beside it as `runnables`, through the
// public API (config.api).
import type { Registry } from 'prom-client';
import { certificatesProto } from '@orch/proto';
import { servingAddress } from '@orch/component-base/flags';
import { grpcServingChecker, startGrpcServer } from '@orch/component-base/grpc-server';
import { startOperationalServer } from '@orch/component-base/operational';
import { Deferred, aborted } from '@orch/component-base/run';
import type { Runnable } from '@orch/component-base/run';
import { newCertificatePlugins } from './admission/plugins.js';
import type { CertificatesConfig } from './config.js';
import { certificatesService, newCertificatesMetrics } from './grpc/certificates-service.js';
import type { CertificatesMetrics } from './grpc/certificates-service.js';

export class CertificatesServer implements Runnable {
  readonly registry: Registry;
  readonly #config: CertificatesConfig;
  readonly #metrics: CertificatesMetrics;
  readonly #runnables: readonly Runnable[];
  readonly #serving = new Deferred<number>();
  #ready = false;

  /** runnables: run beside the gRPC server until the same signal (the controllers). */
  constructor(config: CertificatesConfig, runnables: readonly Runnable[] = []) {
    this.#config = config;
    this.registry = config.registry;
    this.#metrics = newCertificatesMetrics(config.registry);
    this.#runnables = runnables;
  }

  /** The port once serving. */
  get serving(): Promise<number> {
    return this.#serving.promise;
  }

  async run(signal: AbortSignal): Promise<void> {
    const { log, options } = this.#config;
    try {
      const plugins = newCertificatePlugins({ authorize: (a) => this.#config.authorize(a) });
      const grpc = await startGrpcServer({
        address: servingAddress(options.serving),
        tls: options.serving.tls,
        services: [
          {
            name: 'orch.certificates.v1.Certificates',
            definition: certificatesProto.orch.certificates.v1.Certificates.service,
            implementation: certificatesService({
              plugins,
              metrics: this.#metrics,
              log,
              ready: () => this.#ready,
            }) as never,
          },
        ],
      });
      this.#ready = true;
      grpc.setServing(true);
      const operational = await startOperationalServer({
        component: 'certificates',
        options: options.operational,
        registry: this.registry,
        log,
        logLevel: options.logLevel,
        readyz: [grpcServingChecker(grpc)],
        configz: () => options,
      });
      log.info('certificates serving', { port: grpc.port, plugins: [...plugins.keys()] });
      this.#serving.resolve(grpc.port);

      await Promise.all([aborted(signal), ...this.#runnables.map((r) => r.run(signal))]);
      grpc.setServing(false);
      await grpc.stop();
      await operational?.close();
    } catch (err) {
      this.#serving.reject(err);
      throw err;
    } finally {
      await this.#config.close();
    }
  }
}
