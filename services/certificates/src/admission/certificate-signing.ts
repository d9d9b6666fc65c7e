// CertificateSigning (upstream plugin/pkg/admission/certificates/signing): an UPDATE of
// certificatesigningrequests/status that changes status.certificate needs `sign` on `signers`
// for the request's signer name (or its `<domain>/*`) in certificates.orch.io, read from the
// stored object.
import { isDeepStrictEqual } from 'node:util';
import { forbidden, signerNameOf } from './forbidden.js';
import { isCsrWrite } from './interfaces.js';
import type {
  CertificatePlugin,
  CertificatePluginDeps,
  CertificatePluginName,
  CertificatePlugins,
} from './interfaces.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'CertificateSigning' satisfies CertificatePluginName;

const certificateOf = (obj: unknown): unknown =>
  (obj as { status?: { certificate?: unknown } } | undefined)?.status?.certificate ?? '';

export function newCertificateSigning(deps: CertificatePluginDeps): CertificatePlugin {
  return {
    name: pluginName,
    handles: (operation) => operation === 'UPDATE',
    async validate(req) {
      if (req.operation !== 'UPDATE' || req.subResource !== 'status' || !isCsrWrite(req)) return;
      // Only a change of the certificate needs the permission (upstream's certificateUpdated).
      if (isDeepStrictEqual(certificateOf(req.oldObject), certificateOf(req.object))) return;
      const signerName = signerNameOf(req.oldObject ?? req.object);
      if (!(await isAuthorizedForSignerName(deps, req.userInfo, 'sign', signerName))) {
        throw forbidden(
          req,
          `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`
        );
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: CertificatePlugins): void {
  plugins.register(pluginName, newCertificateSigning);
}
