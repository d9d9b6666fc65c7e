// A promise-based client of orch.certificates.v1.Certificates (the gateway's side of the
// certificates service): the admission service's Admit call and messages (AdmitClient), on
// the certificates service's stub.
import type { ChannelCredentials } from '@grpc/grpc-js';
import { certificatesProto, channelOptions } from '@orch/proto';
import { AdmitClient } from './admission-client.js';

export interface CertificatesClientOptions {
  address: string;
  credentials: ChannelCredentials;
  /** Deadline of one call (the service asks the authorizer at most twice per plugin). */
  timeoutMs?: number;
}

export class CertificatesClient extends AdmitClient {
  constructor(opts: CertificatesClientOptions) {
    super(
      new certificatesProto.orch.certificates.v1.Certificates(opts.address, opts.credentials, {
        ...channelOptions,
        'grpc.ssl_target_name_override': 'certificates',
      }),
      'certificates service',
      opts.timeoutMs ?? 10_000
    );
  }
}
