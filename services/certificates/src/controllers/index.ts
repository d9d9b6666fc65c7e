export type { CertificateControllersDeps } from './certificate-controllers.js';
export { CertificateControllers } from './certificate-controllers.js';
export type { CertificateControllersOptions, ControllerName } from './controller-options.js';
export {
  builtinSigners,
  certificateControllersFlags,
  completeCertificateControllersOptions,
  disabledByDefault,
  isControllerEnabled,
  knownControllers,
  validateCertificateControllersOptions,
} from './controller-options.js';
export type { CertificateSigningRequest, CsrCondition } from './csr.js';
export {
  clientNodeAgentSignerName,
  clientSignerName,
  csrPath,
  nodeAgentServingSignerName,
} from './csr.js';
export { computeDetachedSignature, detachedTokenIsValid } from './bootstrap/jws.js';
export { clusterInfoKubeconfig } from './bootstrap/bootstrap-signer.js';
