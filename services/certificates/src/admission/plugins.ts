// The certificate plugins of the service by name (upstream registers each in
// pkg/kubeapiserver/options/plugins.go): built once at start with the authorizer they ask.
import { newCertificateApproval } from './certificate-approval.js';
import { newCertificateSigning } from './certificate-signing.js';
import { newCertificateSubjectRestriction } from './certificate-subject-restriction.js';
import type {
  CertificatePlugin,
  CertificatePluginDeps,
  CertificatePluginName,
} from './interfaces.js';

export function newCertificatePlugins(
  deps: CertificatePluginDeps
): ReadonlyMap<CertificatePluginName, CertificatePlugin> {
  const plugins = [
    newCertificateApproval(deps),
    newCertificateSigning(deps),
    newCertificateSubjectRestriction(),
  ];
  return new Map(plugins.map((p) => [p.name, p]));
}
