// The certificate plugins of the service (upstream registers each in
// pkg/kubeapiserver/options/plugins.go, RegisterAllAdmissionPlugins): each plugin module exports
// its name and registers its factory; this file registers them all. They are built once at
// start with the authorizer they ask.
import { Plugins } from '@orch/apimachinery/admission';
import * as certificateApproval from './certificate-approval.js';
import * as certificateSigning from './certificate-signing.js';
import * as certificateSubjectRestriction from './certificate-subject-restriction.js';
import type {
  CertificatePlugin,
  CertificatePluginDeps,
  CertificatePluginName,
  CertificatePlugins,
} from './interfaces.js';

/** Registers every plugin of the service (upstream's RegisterAllAdmissionPlugins). */
export function registerAllAdmissionPlugins(plugins: CertificatePlugins): void {
  certificateApproval.register(plugins);
  certificateSigning.register(plugins);
  certificateSubjectRestriction.register(plugins);
}

/** A registry of every plugin of the service. */
export function newCertificatePluginRegistry(): CertificatePlugins {
  const plugins: CertificatePlugins = new Plugins('certificates');
  registerAllAdmissionPlugins(plugins);
  return plugins;
}

/** Builds every registered plugin, by name, in the order they run. */
export function newCertificatePlugins(
  deps: CertificatePluginDeps,
  plugins: CertificatePlugins = newCertificatePluginRegistry()
): ReadonlyMap<CertificatePluginName, CertificatePlugin> {
  return new Map(plugins.registered().map((name) => [name, plugins.factory(name)!(deps)]));
}
