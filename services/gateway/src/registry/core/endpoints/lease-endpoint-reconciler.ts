// The Endpoints and EndpointSlice of the `default/kubernetes` Service (k8s pkg/controlplane
// reconcilers lease.go leaseEndpointReconciler, endpointsadapter.go): every gateway keeps a
// lease of its advertised IP (a Lease `orch-apiserver-endpoint-<ip>-<port>` in orch-system,
// renewed every 10 s, good for 15 s: upstream's /masterleases/<ip> with its TTL), and writes the
// Endpoints `kubernetes` with the IPs of the live leases and the EndpointSlice `kubernetes`
// beside it. A clean stop removes its lease and rewrites both from the leases left
// (RemoveEndpoints). The lease is named by the gateway's port too, unlike upstream's: gateways
// on one host (make run, a compose file on one machine) share an IP, and one's stop must not
// take the address away from the others until their next renewal. It runs in every gateway, as
// upstream's in every apiserver: the gateways are the API's endpoints, and only they know when
// they come and go.
//
// The port is the one the Service targets (its targetPort), not each gateway's own: upstream
// gives every apiserver the same port, while gateways on one host (make run, the tests) listen
// on several, and a port per writer would make the object flap.
import { networkInterfaces } from 'node:os';
import { isNotFound } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Logger } from '@orch/component-base/logs';
import type { Store } from '../../store.js';

/** k8s DefaultEndpointReconcilerInterval and DefaultEndpointReconcilerTTL. */
export const endpointReconcileIntervalMs = 10_000;
export const endpointLeaseTtlSeconds = 15;
export const endpointLeasePrefix = 'orch-apiserver-endpoint-';
const leaseNamespace = 'orch-system';

export interface EndpointStores {
  leases: Store;
  endpoints: Store;
  endpointSlices: Store;
  services: Store;
}

/**
 * The advertised IP (k8s DefaultExternalAddress, ResolveBindAddress): the bind address, unless it
 * is unspecified or loopback: then the host's first non-loopback address (ChooseHostInterface),
 * IPv4 first; undefined when the host has none.
 */
export function advertiseAddress(bindAddress: string): string | undefined {
  const loopback =
    /^127\./.test(bindAddress) || bindAddress === '::1' || bindAddress === 'localhost';
  if (bindAddress && bindAddress !== '0.0.0.0' && bindAddress !== '::' && !loopback) {
    return bindAddress;
  }
  const all = Object.values(networkInterfaces()).flatMap((a) => a ?? []);
  const external = all.filter((a) => !a.internal);
  return (external.find((a) => a.family === 'IPv4') ?? external[0])?.address;
}

const microNow = (): string => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** The Lease of a gateway's IP and port (a name holds no `:`: an IPv6 address has `-`s). */
export const endpointLeaseName = (ip: string, port: number): string =>
  `${endpointLeasePrefix}${ip.toLowerCase().replace(/:/g, '-')}-${port}`;

/** The live IPs (holderIdentity) among the leases: renewTime + leaseDurationSeconds not past. */
export function liveLeaseIps(leases: readonly ApiObject[], nowMs: number): string[] {
  const ips = new Set<string>();
  for (const l of leases) {
    if (!(l.metadata.name ?? '').startsWith(endpointLeasePrefix)) continue;
    const spec = (l['spec'] ?? {}) as {
      holderIdentity?: string;
      renewTime?: string;
      leaseDurationSeconds?: number;
    };
    const renewed = Date.parse(spec.renewTime ?? '');
    if (spec.holderIdentity && renewed + (spec.leaseDurationSeconds ?? 0) * 1000 > nowMs) {
      ips.add(spec.holderIdentity);
    }
  }
  return [...ips].sort();
}

/** The Endpoints as upstream's reconciler writes them (skip-mirror: no mirrored slice). */
export function kubernetesEndpoints(ips: readonly string[], port: number): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' },
    },
    subsets:
      ips.length === 0
        ? []
        : [
            {
              addresses: ips.map((ip) => ({ ip })),
              ports: [{ name: 'https', port, protocol: 'TCP' }],
            },
          ],
  };
}

/** endpointSliceFromEndpoints: the same addresses, ready, labelled with the Service's name. */
export function kubernetesEndpointSlice(ips: readonly string[], port: number): ApiObject {
  return {
    apiVersion: 'discovery.orch.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { 'kubernetes.io/service-name': 'kubernetes' },
    },
    addressType: ips.some((ip) => ip.includes(':')) ? 'IPv6' : 'IPv4',
    endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: [{ name: 'https', port, protocol: 'TCP' }],
  };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export class LeaseEndpointReconciler {
  readonly #stores: EndpointStores;
  readonly #ip: string;
  readonly #ownPort: number;
  readonly #log: Logger;

  constructor(stores: EndpointStores, ip: string, ownPort: number, log: Logger) {
    this.#stores = stores;
    this.#ip = ip;
    this.#ownPort = ownPort;
    this.#log = log;
  }

  /** Renews the lease and reconciles every interval until `signal`. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.#renewLease();
        await this.reconcile();
      } catch (err) {
        this.#log.warn('reconciling the kubernetes endpoints failed', { err: String(err) });
      }
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const t = setTimeout(done, endpointReconcileIntervalMs);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /**
   * RemoveEndpoints once `running` (run()) has returned: this gateway's lease deleted, the
   * objects written without its IP; given up after `timeoutMs` (storage may be stopping too),
   * when the lease simply expires.
   */
  async stop(running: Promise<unknown>, timeoutMs: number): Promise<void> {
    const remove = async (): Promise<void> => {
      await running; // the last renewal done, so that it does not bring the lease back
      try {
        await this.#stores.leases.delete({ namespace: leaseNamespace }, this.#leaseName, {
          dryRun: false,
        });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      await this.reconcile();
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
      timer.unref();
    });
    try {
      await Promise.race([remove(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  get #leaseName(): string {
    return endpointLeaseName(this.#ip, this.#ownPort);
  }

  async #renewLease(): Promise<void> {
    const spec = {
      holderIdentity: this.#ip,
      leaseDurationSeconds: endpointLeaseTtlSeconds,
      renewTime: microNow(),
    };
    await this.#stores.leases.update(
      { namespace: leaseNamespace },
      this.#leaseName,
      (current) => ({
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        ...(current ?? {}),
        metadata: {
          ...(current?.metadata ?? {}),
          name: this.#leaseName,
          namespace: leaseNamespace,
        },
        spec,
      }),
      { dryRun: false, forceAllowCreate: true }
    );
  }

  /** doReconcile: the Endpoints and the EndpointSlice from the live leases. */
  async reconcile(): Promise<void> {
    const leases = await this.#stores.leases.list(
      { namespace: leaseNamespace },
      { consistency: 'MOST_RECENT' }
    );
    const ips = liveLeaseIps(leases.items, Date.now());
    const port = await this.#servicePort();
    await this.#write(this.#stores.endpoints, kubernetesEndpoints(ips, port), ['subsets']);
    await this.#write(this.#stores.endpointSlices, kubernetesEndpointSlice(ips, port), [
      'addressType',
      'endpoints',
      'ports',
    ]);
  }

  /** The Service's targetPort (numeric), else this gateway's port. */
  async #servicePort(): Promise<number> {
    try {
      const svc = await this.#stores.services.get({ namespace: 'default' }, 'kubernetes', {
        consistency: 'MOST_RECENT',
      });
      const ports = ((svc['spec'] as { ports?: { name?: string; targetPort?: unknown }[] }) ?? {})
        .ports;
      const target = ports?.find((p) => p.name === 'https')?.targetPort;
      return typeof target === 'number' ? target : this.#ownPort;
    } catch (err) {
      if (isNotFound(err)) return this.#ownPort;
      throw err;
    }
  }

  /** Writes `desired` unless the stored object already has its labels and `fields`. */
  async #write(store: Store, desired: ApiObject, fields: string[]): Promise<void> {
    await store.update(
      { namespace: 'default' },
      'kubernetes',
      (current) => {
        const labels = { ...(current?.metadata.labels ?? {}), ...(desired.metadata.labels ?? {}) };
        const next: ApiObject = {
          ...(current ?? {}),
          ...desired,
          metadata: { ...(current?.metadata ?? {}), ...desired.metadata, labels },
        };
        const unchanged =
          current &&
          same(current.metadata.labels, labels) &&
          fields.every((f) => same(current[f] ?? [], desired[f] ?? []));
        return unchanged ? current : next;
      },
      { dryRun: false, forceAllowCreate: true }
    );
  }
}
