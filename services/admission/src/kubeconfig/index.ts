export type { KubeconfigEntry, KubeconfigUser } from './kubeconfig-entries.js';
export { kubeconfigData, kubeconfigString, kubeconfigUser } from './kubeconfig-entries.js';
