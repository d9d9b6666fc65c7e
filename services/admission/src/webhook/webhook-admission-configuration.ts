// The configuration of MutatingAdmissionWebhook and ValidatingAdmissionWebhook, given as the
// plugin's entry of --admission-control-config-file (upstream: k8s.io/apiserver/pkg/admission/
// plugin/webhook/config, WebhookAdmission; apiserver.config.k8s.io/v1 WebhookAdmissionConfiguration).
//
//   apiVersion: apiserver.config.orch.io/v1
//   kind: WebhookAdmissionConfiguration
//   kubeConfigFile: /etc/orch/admission/webhook-credentials.yaml   # optional, absolute
//   serviceAddresses:                                              # optional (ours)
//     "policy.security.svc": "10.0.0.12:8443"
//     "mutator.team-a.svc:8443": "127.0.0.1:9443"
//
// kubeConfigFile: the credentials the service presents to webhooks, in kubeconfig form. Each
// `users[]` entry is named after the webhooks it is for: the service name `<name>.<namespace>.svc`
// with or without `:<port>` (without when the port is 443), or the URL's `host:port`; a name
// may be a wildcard `*.<domain>` (`*.svc` every service), and `*` is the default for every
// webhook. The most specific name wins (exact, then the longest wildcard, then `*`). An entry
// may give client-certificate(-data) and client-key(-data), token or tokenFile, or username
// and password. Webhooks no entry names are called without credentials.
//
// serviceAddresses: there is no cluster DNS, so how `clientConfig.service` reaches its backend
// is configuration. A key `<name>.<namespace>.svc:<port>` (or without `:<port>`, for any port)
// maps the service to the `host:port` dialled; the TLS server name and the name the server
// certificate must be valid for stay `<name>.<namespace>.svc`, and the Host header is the
// service's. A service with no entry is dialled as `<name>.<namespace>.svc:<port>` through
// the host's resolver (upstream's default service resolver), so /etc/hosts or DNS also work.
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';

import { serviceAddressProblem } from '@orch/apimachinery/webhook';

/** The parsed plugin configuration. */
export interface WebhookAdmissionConfiguration {
  /** The credential file, or undefined when none is configured. */
  kubeConfigFile?: string;
  /** Service DNS name (with or without port) to the `host:port` dialled. */
  serviceAddresses: Readonly<Record<string, string>>;
}

export const webhookAdmissionApiVersion = 'apiserver.config.orch.io/v1';
export const webhookAdmissionKind = 'WebhookAdmissionConfiguration';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads the plugin's configuration (`deps.config`): undefined is the empty configuration.
 * Throws an Error naming the field for anything malformed.
 */
export function parseWebhookAdmissionConfiguration(
  plugin: string,
  config: unknown
): WebhookAdmissionConfiguration {
  if (config === undefined || config === null) return { serviceAddresses: {} };
  const fail = (field: string, why: string): never => {
    throw new Error(`${plugin} configuration: ${field}: ${why}`);
  };
  if (!isRecord(config)) return fail('(root)', `must be an object`);
  if (config['apiVersion'] !== webhookAdmissionApiVersion) {
    fail('apiVersion', `must be ${JSON.stringify(webhookAdmissionApiVersion)}`);
  }
  if (config['kind'] !== webhookAdmissionKind) {
    fail('kind', `must be ${JSON.stringify(webhookAdmissionKind)}`);
  }
  for (const key of Object.keys(config)) {
    if (!['apiVersion', 'kind', 'kubeConfigFile', 'serviceAddresses'].includes(key)) {
      fail(key, 'unknown field');
    }
  }
  const out: { kubeConfigFile?: string; serviceAddresses: Record<string, string> } = {
    serviceAddresses: {},
  };
  const file = config['kubeConfigFile'];
  if (file !== undefined && file !== '') {
    if (typeof file !== 'string') fail('kubeConfigFile', 'must be a string');
    if (!isAbsolute(file as string)) fail('kubeConfigFile', `must be an absolute file path`);
    out.kubeConfigFile = file as string;
  }
  const addrs = config['serviceAddresses'];
  if (addrs !== undefined && addrs !== null) {
    if (!isRecord(addrs))
      fail('serviceAddresses', 'must be an object of "name.namespace.svc[:port]": "host:port"');
    for (const [key, value] of Object.entries(addrs as Record<string, unknown>)) {
      const field = `serviceAddresses[${JSON.stringify(key)}]`;
      const problem = serviceAddressProblem(key, value);
      if (problem) fail(field, problem);
      out.serviceAddresses[key] = value as string;
    }
  }
  return out;
}

/** Reads a file named by the configuration, with an error that names the field. */
export function readConfigFile(field: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${field}: cannot read ${path}: ${(err as Error).message}`);
  }
}
