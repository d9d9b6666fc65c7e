// Whether a user may `approve` or `sign` for a signer name (upstream's
// pkg/apis/certificates.IsAuthorizedForSignerName): first the exact name as the resource name of
// `signers` in certificates.orch.io, then the wildcard `<domain>/*` of the name's domain part.
import type { Attributes, UserInfo } from '@orch/apimachinery/auth';
import { certificatesGroup } from './interfaces.js';
import type { CertificatePluginDeps } from './interfaces.js';

function signerAttributes(user: UserInfo, verb: string, name: string): Attributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: certificatesGroup,
    apiVersion: '*',
    resource: 'signers',
    subresource: '',
    namespace: '',
    name,
  };
}

export async function isAuthorizedForSignerName(
  deps: CertificatePluginDeps,
  user: UserInfo,
  verb: 'approve' | 'sign',
  signerName: string
): Promise<boolean> {
  const exact = await deps.authorize(signerAttributes(user, verb, signerName));
  if (exact.decision === 'allow') return true;
  const domain = signerName.split('/')[0] ?? '';
  const wildcard = await deps.authorize(signerAttributes(user, verb, `${domain}/*`));
  return wildcard.decision === 'allow';
}
