// The chain member of the certificate plugins (CertificateApproval, CertificateSigning,
// CertificateSubjectRestriction: upstream's plugin/pkg/admission/certificates, which live in the
// certificates service here): in the validating phase of every write of a
// CertificateSigningRequest, one call to the service naming the enabled ones in order. The
// service also checks the PKCS#10 request of a create (a 422 naming spec.request), whatever
// plugins are named. Other kinds never reach the service.
//
// Fail closed: if the service is not configured (--certificates-servers), cannot be reached or
// fails, the CSR write fails with a 503 saying the certificates service could not be reached;
// it never goes on unchecked.
import { StatusError, newInternalError, newServiceUnavailable } from '@orch/apimachinery/errors';
import type { AdmitResult } from '@orch/apimachinery/grpc';
import { isCertificateSigningRequests } from '../chain.js';
import type { CertificatePluginName } from '../chain.js';
import type { AdmissionPlugin } from '../interfaces.js';
import { requestOf } from '../service/service-plugins.js';
import type { AdmissionCaller } from '../service/service-plugins.js';

/** What the member needs of a client (CertificatesClient satisfies it): an Admit call. */
export type CertificatesCaller = AdmissionCaller;

function unreachable(why: string): StatusError {
  return newServiceUnavailable(
    `the certificates service could not be reached: ${why}; CertificateSigningRequest writes are refused until it answers`
  );
}

/**
 * The member; `client` undefined when no --certificates-servers is given (every CSR write then
 * fails with 503).
 */
export function certificatePlugins(
  names: readonly CertificatePluginName[],
  client: CertificatesCaller | undefined
): AdmissionPlugin {
  return {
    name: `certificates(${names.join(',')})`,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(a) {
      if (!isCertificateSigningRequests(a)) return;
      if (!client)
        throw unreachable('no certificates service is configured (--certificates-servers)');
      let result: AdmitResult;
      try {
        result = await client.admit({
          phase: 'validating',
          plugins: [...names],
          request: requestOf(a),
        });
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        if (err instanceof StatusError && err.code !== 503 && err.code !== 504) {
          throw newInternalError(`the certificates service failed: ${why}`);
        }
        throw unreachable(why);
      }
      for (const w of result.warnings) a.warn?.(w);
      if (!result.allowed) {
        throw result.status
          ? new StatusError(result.status)
          : newInternalError('the certificates service denied without a Status');
      }
    },
  };
}
