// A gRPC server with mutual TLS and grpc.health.v1, as every service of the suite runs it.
import { Server } from '@grpc/grpc-js';
import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { healthCheckerFunc } from '../healthz/index.js';
import type { HealthChecker } from '../healthz/index.js';
import type { TlsFiles } from './tls.js';
import { serverCredentials } from './tls.js';

export interface GrpcServer {
  server: Server;
  port: number;
  health: HealthImplementation;
  setServing(serving: boolean): void;
  /** What setServing last set (false until then). */
  isServing(): boolean;
  stop(): Promise<void>;
}

/** The /readyz check of a process serving gRPC: it passes while the server reports SERVING. */
export function grpcServingChecker(grpc: Pick<GrpcServer, 'isServing'>): HealthChecker {
  return healthCheckerFunc('grpc-serving', () => {
    if (!grpc.isServing()) throw new Error('the gRPC server reports NOT_SERVING');
  });
}

export async function startGrpcServer(opts: {
  address: string;
  tls?: TlsFiles;
  services: {
    definition: ServiceDefinition;
    implementation: UntypedServiceImplementation;
    name: string;
  }[];
}): Promise<GrpcServer> {
  // channelz off: its per-call bookkeeping serves an introspection service the suite does not run.
  const server = new Server({
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    'grpc.enable_channelz': 0,
  });
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  for (const s of opts.services) {
    server.addService(s.definition, s.implementation);
    health.setStatus(s.name, 'NOT_SERVING');
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(opts.address, serverCredentials(opts.tls), (err, p) =>
      err ? reject(err) : resolve(p)
    )
  );
  let isServing = false;
  const setServing = (serving: boolean): void => {
    isServing = serving;
    const st = serving ? 'SERVING' : 'NOT_SERVING';
    health.setStatus('', st);
    for (const s of opts.services) health.setStatus(s.name, st);
  };
  return {
    server,
    port,
    health,
    setServing,
    isServing: () => isServing,
    stop: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.forceShutdown(), 5000);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
