// What both webhook plugins build from their PluginDeps: the configuration (serviceAddresses,
// the credential file), the webhook source over the configurations' lister, the matcher over
// the namespace lister, the metrics. Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/
// generic/webhook.go (NewWebhook) and webhook/config (LoadConfig).
import type { Logger } from '@orch/component-base/logs';

import type { PluginDeps, ServicePluginName } from '../interfaces.js';
import { Matcher, ServedEquivalentResources } from '../matching/index.js';

import type { AuthenticationInfo } from '@orch/apimachinery/webhook';
import { newAuthenticationInfoResolver, parseCredentialFile } from '@orch/apimachinery/webhook';
import {
  parseWebhookAdmissionConfiguration,
  readConfigFile,
} from './webhook-admission-configuration.js';
import { newWebhookClient } from '@orch/apimachinery/webhook';
import type { WebhookMetrics } from './webhook-metrics.js';
import { newWebhookMetrics } from './webhook-metrics.js';
import { WebhookSource } from './webhook-source.js';

export interface WebhookPluginParts {
  source: WebhookSource;
  matcher: Matcher;
  metrics: WebhookMetrics;
  log: Logger;
}

/** Throws an Error naming the field when the configuration or the credential file is bad. */
export function setUpWebhookPlugin(
  deps: PluginDeps,
  name: ServicePluginName,
  resource: 'mutatingwebhookconfigurations' | 'validatingwebhookconfigurations'
): WebhookPluginParts {
  const config = parseWebhookAdmissionConfiguration(name, deps.config);
  let users = new Map<string, AuthenticationInfo>();
  if (config.kubeConfigFile !== undefined) {
    const text = readConfigFile(`${name} configuration: kubeConfigFile`, config.kubeConfigFile);
    users = parseCredentialFile(text, config.kubeConfigFile);
  }
  const auth = newAuthenticationInfoResolver(users);
  const log = deps.log.child({ plugin: name });
  return {
    source: new WebhookSource({
      listers: deps.listers,
      resource,
      newClient: (cc) => newWebhookClient(cc, config.serviceAddresses, auth),
      matchConditions: deps.matchConditions,
      log,
    }),
    matcher: new Matcher(
      deps.listers.namespaces,
      new ServedEquivalentResources(deps.listers, config.serviceAddresses)
    ),
    metrics: newWebhookMetrics(deps.registry),
    log,
  };
}
