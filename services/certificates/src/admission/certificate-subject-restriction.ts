// CertificateSubjectRestriction (upstream plugin/pkg/admission/certificates/subjectrestriction):
// a CREATE of a CertificateSigningRequest for `orch.io/apiserver-client` whose subject names
// the `system:masters` organization is refused: nobody obtains a superuser certificate through
// the built-in client signer.
import { newBadRequest } from '@orch/apimachinery/errors';
import { checkRequest } from '../request/check-request.js';
import { forbidden, signerNameOf } from './forbidden.js';
import { isCsrWrite } from './interfaces.js';
import type { CertificatePlugin, CertificatePluginName, CertificatePlugins } from './interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'CertificateSubjectRestriction' satisfies CertificatePluginName;

export const apiServerClientSignerName = 'orch.io/apiserver-client';
const mastersGroup = 'system:masters';
/** OID of the subject's organizationName attribute. */
const organizationOid = '2.5.4.10';

export function newCertificateSubjectRestriction(): CertificatePlugin {
  return {
    name: pluginName,
    handles: (operation) => operation === 'CREATE',
    async validate(req) {
      if (req.operation !== 'CREATE' || req.subResource !== '' || !isCsrWrite(req)) return;
      const signerName = signerNameOf(req.object);
      if (signerName !== apiServerClientSignerName) return;
      const spec = (req.object as { spec?: { request?: unknown } } | undefined)?.spec;
      const parsed = await checkRequest(spec?.request);
      if ('error' in parsed) {
        throw newBadRequest(`failed to parse CSR: ${parsed.error.message}`);
      }
      const organizations = parsed.csr.subjectName.getField(organizationOid);
      if (organizations.includes(mastersGroup)) {
        throw forbidden(
          req,
          `use of ${signerName} signer with ${mastersGroup} group is not allowed`
        );
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: CertificatePlugins): void {
  plugins.register(pluginName, () => newCertificateSubjectRestriction());
}
