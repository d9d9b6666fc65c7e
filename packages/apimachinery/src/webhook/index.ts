// The outbound webhook client shared by the admission webhooks (admission service) and the
// conversion webhooks of custom resources (gateway), as upstream's k8s.io/apiserver/pkg/util/
// webhook serves both: where a client configuration dials, its TLS trust and credentials, and
// the POST of a review with a deadline.
export type {
  AuthenticationInfo,
  AuthenticationInfoResolver,
} from './authentication-info-resolver.js';
export {
  newAuthenticationInfoResolver,
  parseCredentialFile,
} from './authentication-info-resolver.js';
export type { KubeconfigEntry, KubeconfigUser } from './kubeconfig-entries.js';
export { kubeconfigData, kubeconfigString, kubeconfigUser } from './kubeconfig-entries.js';
export type { WebhookClient, WebhookClientConfig, WebhookReply } from './webhook-client.js';
export {
  InvalidReplyError,
  ReplyStatusError,
  maxReplyBytes,
  newWebhookClient,
  serviceAddressProblem,
} from './webhook-client.js';
