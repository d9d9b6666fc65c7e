// The --kubelet-* flags of the gateway (k8s KubeletConfig options of kube-apiserver), spread
// into gatewayFlags by options.ts, completed into KubeletClientOptions.
import { defaultPreferredAddressTypes } from './kubelet-client.js';
import type { KubeletClientOptions } from './kubelet-client.js';

export const kubeletClientFlags = {
  'kubelet-client-certificate': {
    type: 'string',
    description: 'Client certificate the gateway presents to node agents (logs, exec, proxy).',
  },
  'kubelet-client-key': {
    type: 'string',
    description: 'Private key of --kubelet-client-certificate.',
  },
  'kubelet-certificate-authority': {
    type: 'string',
    description: "CA that node agents' serving certificates are verified against.",
  },
  'kubelet-preferred-address-types': {
    type: 'string',
    default: defaultPreferredAddressTypes.join(','),
    description: "The Node address types tried in order to reach a node's agent.",
  },
  'kubelet-timeout': {
    type: 'string',
    default: '5s',
    description: "Timeout of connecting to a node's agent and of its answer's headers.",
  },
} as const;

const addressTypes = new Set(defaultPreferredAddressTypes);

/** The completed options; `problems` receives each invalid value. */
export function kubeletClientOptions(
  f: Partial<Record<keyof typeof kubeletClientFlags, string>>,
  timeoutMs: number,
  problems: string[]
): KubeletClientOptions {
  const types = (f['kubelet-preferred-address-types'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (types.length === 0) problems.push('--kubelet-preferred-address-types: must not be empty');
  for (const t of types) {
    if (!addressTypes.has(t)) {
      problems.push(`--kubelet-preferred-address-types: unsupported address type ${t}`);
    }
  }
  const certFile = f['kubelet-client-certificate'] ?? '';
  const keyFile = f['kubelet-client-key'] ?? '';
  if ((certFile === '') !== (keyFile === '')) {
    problems.push('--kubelet-client-certificate and --kubelet-client-key go together');
  }
  return {
    certFile,
    keyFile,
    caFile: f['kubelet-certificate-authority'] ?? '',
    preferredAddressTypes: types,
    timeoutMs,
  };
}
