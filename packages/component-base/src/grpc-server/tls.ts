// Mutual TLS for internal gRPC: every service presents a certificate from the cluster CA and
// requires one from its peer.
import { readFileSync } from 'node:fs';
import { ChannelCredentials, ServerCredentials } from '@grpc/grpc-js';

export interface TlsFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

export function serverCredentials(tls: TlsFiles | undefined): ServerCredentials {
  if (!tls) return ServerCredentials.createInsecure();
  return ServerCredentials.createSsl(
    readFileSync(tls.caFile),
    [{ cert_chain: readFileSync(tls.certFile), private_key: readFileSync(tls.keyFile) }],
    true
  );
}

export function clientCredentials(tls: TlsFiles | undefined): ChannelCredentials {
  if (!tls) return ChannelCredentials.createInsecure();
  return ChannelCredentials.createSsl(
    readFileSync(tls.caFile),
    readFileSync(tls.keyFile),
    readFileSync(tls.certFile)
  );
}
