export type {
  CertificateAuthority,
  CreateCertificateAuthorityOptions,
} from './certificate-authority.js';
export { createCertificateAuthority, loadCertificateAuthority } from './certificate-authority.js';
export type { CertificateFiles, ClusterPki, EnsureClusterPkiOptions } from './cluster-pki.js';
export {
  adminCertName,
  adminUserName,
  authorizerClientCertName,
  certFiles,
  componentUserName,
  componentsGroup,
  defaultServiceNames,
  ensureClusterPki,
  mastersGroup,
  monitoringCertName,
  monitoringGroup,
} from './cluster-pki.js';
export type { CertificateUsage, IssueCertificateOptions } from './issue-certificate.js';
export { issueCertificate } from './issue-certificate.js';
export type { KeyPairPem } from './key-pem.js';
export type { WriteKubeconfigOptions } from './kubeconfig.js';
export { writeKubeconfig } from './kubeconfig.js';
export { x509 } from './x509.js';
