// ImagePolicyWebhook: the plugin factory and its configuration.
export type { ImagePolicyWebhook, ImagePolicyWebhookOptions } from './image-policy-webhook.js';
export {
  imagePolicyAuditKeyPrefix,
  imagePolicyFailedOpenKey,
  newImagePolicyWebhook,
} from './image-policy-webhook.js';
export type { ImagePolicyConfig } from './image-policy-config.js';
export { ImagePolicyConfigError, parseImagePolicyConfig } from './image-policy-config.js';
