// The webhook admission plugins of the service: factories for the plugin registry, and the
// configuration type whose file-head comment documents serviceAddresses and kubeConfigFile.
export type { WebhookAdmissionConfiguration } from './webhook-admission-configuration.js';
export {
  parseWebhookAdmissionConfiguration,
  webhookAdmissionApiVersion,
  webhookAdmissionKind,
} from './webhook-admission-configuration.js';
export { MutatingAdmissionWebhook } from './mutating-admission-webhook.js';
export { ValidatingAdmissionWebhook } from './validating-admission-webhook.js';
