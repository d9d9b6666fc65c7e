// The proxy subresource of services (k8s pkg/registry/core/service/storage/storage.go
// ResourceLocation, with ProxyREST of pkg/registry/core/service/proxy.go):
// /services/<[scheme:]name[:port]>/proxy/<path> goes to a random ready address of the Service's
// Endpoints that has the port (a port number is first turned into the name of the Service's
// port), and only to an address whose targetRef is a Pod that exists with that IP, as upstream
// checks; 503 when there is none.
import { newServiceUnavailable } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ConnectHandler, Connecter, ObjectKind, RestContext } from '../../rest.js';
import type { Store } from '../../store.js';
import { urlHost } from '../nodes/kubelet-client.js';
import { proxyMethods, splitSchemeNamePort } from '../nodes/proxy-rest.js';
import { checkProxyableIP, proxyTo } from '../pods/proxy-rest.js';
import type { ProxyTransport } from '../proxy-transport.js';

type Json = Record<string, unknown>;
const serviceKind: ObjectKind = { group: '', version: 'v1', kind: 'Service', namespaced: true };

interface Address {
  ip?: string;
  targetRef?: { kind?: string; name?: string; namespace?: string };
}
interface Subset {
  addresses?: Address[];
  ports?: { name?: string; port?: number }[];
}

/** k8s service ProxyREST. */
export class ServiceProxyRest implements Connecter {
  readonly objectKind = serviceKind;
  readonly connectMethods = proxyMethods;

  constructor(
    private readonly services: Store,
    private readonly endpoints: Store,
    private readonly pods: Store,
    private readonly transport: ProxyTransport
  ) {}

  connectOptions(_name: string, query: URLSearchParams): ApiObject {
    return {
      apiVersion: 'v1',
      kind: 'ServiceProxyOptions',
      metadata: {},
      path: query.get('path') ?? '',
    };
  }

  async connect(ctx: RestContext, id: string, query: URLSearchParams): Promise<ConnectHandler> {
    return proxyTo(this.transport, await this.location(ctx, id), query);
  }

  /** k8s service ResourceLocation. */
  async location(ctx: RestContext, id: string): Promise<URL> {
    const { scheme, name, port } = splitSchemeNamePort(id, 'service');
    let portName = port;
    if (/^\d+$/.test(port)) {
      const svc = await this.services.get(ctx, name, { consistency: 'MOST_RECENT' });
      const ports = (((svc['spec'] ?? {}) as Json)['ports'] ?? []) as {
        name?: string;
        port?: number;
      }[];
      const found = ports.find((p) => p.port === Number(port));
      if (!found)
        throw newServiceUnavailable(`no service port ${port} found for service "${name}"`);
      portName = found.name ?? '';
    }
    const eps = await this.endpoints.get(ctx, name, { consistency: 'MOST_RECENT' });
    const subsets = (eps['subsets'] ?? []) as Subset[];
    if (subsets.length === 0)
      throw newServiceUnavailable(`no endpoints available for service "${name}"`);
    const seed = Math.floor(Math.random() * subsets.length);
    for (let i = 0; i < subsets.length; i++) {
      const ss = subsets[(seed + i) % subsets.length]!;
      const addresses = ss.addresses ?? [];
      if (addresses.length === 0) continue;
      for (const p of ss.ports ?? []) {
        if ((p.name ?? '') !== portName) continue;
        const start = Math.floor(Math.random() * addresses.length);
        for (let t = 0; t < addresses.length; t++) {
          const addr = addresses[(start + t) % addresses.length]!;
          if (!(await this.isPodAddress(ctx, addr))) continue;
          checkProxyableIP(addr.ip ?? '');
          return new URL(`${scheme || 'http'}://${urlHost(addr.ip ?? '', p.port ?? 0)}`);
        }
      }
    }
    throw newServiceUnavailable(`no endpoints available for service "${id}"`);
  }

  /** upstream's isValidAddress: a Pod target that exists in the namespace with the address's IP. */
  private async isPodAddress(ctx: RestContext, addr: Address): Promise<boolean> {
    const ref = addr.targetRef;
    if (!ref || ref.kind !== 'Pod' || !ref.name) return false;
    if (ref.namespace && ref.namespace !== ctx.namespace) return false;
    try {
      const pod = await this.pods.get(ctx, ref.name, { consistency: 'MOST_RECENT' });
      const status = (pod['status'] ?? {}) as { podIP?: string; podIPs?: { ip?: string }[] };
      const ips = [status.podIP, ...(status.podIPs ?? []).map((x) => x.ip)];
      return ips.includes(addr.ip);
    } catch {
      return false;
    }
  }
}
