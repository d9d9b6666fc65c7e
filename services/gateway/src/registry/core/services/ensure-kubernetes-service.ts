// The `default/kubernetes` Service: the API's own address inside the cluster, the first address
// of the primary --service-cluster-ip-range, port 443 to the gateway's secure port (upstream's
// controlplane kubernetesservice controller, reconciled at start; its Endpoints are the lease
// endpoint reconciler's, registry/core/endpoints/).
import { isAlreadyExists, isNotFound } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';
import type { Store } from '../../store.js';
import type { ServiceRanges } from './service-allocator.js';

/** The Service as upstream's CreateOrUpdateMasterServiceIfNeeded writes it. */
export function kubernetesService(
  ranges: ServiceRanges,
  securePort: number
): Record<string, unknown> {
  const primary = ranges.clusterIPs[0];
  const ip = primary ? primary.ipAt(0) : undefined;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      type: 'ClusterIP',
      ...(ip ? { clusterIP: ip } : {}),
      sessionAffinity: 'None',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: securePort }],
    },
  };
}

/**
 * Creates it through the Store unless it exists, retrying (1 s apart) until storage answers. As
 * upstream's, it reads first: another gateway may have created it, and a create would then be
 * refused for its cluster IP (422, already allocated) before its name (409).
 */
export async function ensureKubernetesService(
  services: Store,
  ranges: ServiceRanges,
  securePort: number,
  log: Logger,
  signal?: AbortSignal
): Promise<void> {
  for (let attempt = 0; !signal?.aborted; attempt++) {
    try {
      try {
        await services.get({ namespace: 'default' }, 'kubernetes', { consistency: 'MOST_RECENT' });
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      const svc = kubernetesService(ranges, securePort);
      await services.create({ namespace: 'default' }, svc as never, { dryRun: false });
      log.info('created the default/kubernetes service');
      return;
    } catch (err) {
      if (isAlreadyExists(err)) return;
      if (attempt > 60) {
        log.error('could not create the default/kubernetes service', { err: String(err) });
        return;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
