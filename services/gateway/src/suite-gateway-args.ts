import type { Suite } from '@orch/testing';

/**
 * The flags a test's in-process gateway needs to join a suite: serving certificate and client CA,
 * storage and its gRPC client certificate, NATS, the suite's admission service. The port and the
 * test's own flags (authorization, admission) come from the caller.
 */
export function suiteGatewayArgs(suite: Suite): string[] {
  const g = suite.pki.file('gateway');
  return [
    `--tls-cert-file=${g.certFile}`,
    `--tls-private-key-file=${g.keyFile}`,
    `--client-ca-file=${suite.pki.caFile}`,
    `--storage-servers=127.0.0.1:${suite.storagePort}`,
    `--grpc-ca-file=${suite.pki.caFile}`,
    `--grpc-cert-file=${g.certFile}`,
    `--grpc-key-file=${g.keyFile}`,
    `--nats-url=${suite.nats.url}`,
    `--admission-servers=127.0.0.1:${suite.admissionPort}`,
  ];
}
