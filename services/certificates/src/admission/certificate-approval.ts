// CertificateApproval (upstream plugin/pkg/admission/certificates/approval): an UPDATE of
// certificatesigningrequests/approval needs `approve` on `signers` for the request's signer
// name (or its `<domain>/*`) in certificates.orch.io. The signer name is read from the stored
// object, so a write that tries to change it is judged by the one it has.
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
export const pluginName = 'CertificateApproval' satisfies CertificatePluginName;

export function newCertificateApproval(deps: CertificatePluginDeps): CertificatePlugin {
  return {
    name: pluginName,
    handles: (operation) => operation === 'UPDATE',
    async validate(req) {
      if (req.operation !== 'UPDATE' || req.subResource !== 'approval' || !isCsrWrite(req)) return;
      const signerName = signerNameOf(req.oldObject ?? req.object);
      if (!(await isAuthorizedForSignerName(deps, req.userInfo, 'approve', signerName))) {
        throw forbidden(
          req,
          `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`
        );
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: CertificatePlugins): void {
  plugins.register(pluginName, newCertificateApproval);
}
