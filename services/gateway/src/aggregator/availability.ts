// The Available condition of an APIService that names a service, as kube-aggregator's
// remote availability controller decides it (pkg/controllers/status/remote/
// remote_available_controller.go, sync): the Service exists and, for a ClusterIP one, listens on
// the APIService's port; its EndpointSlices have a ready endpoint with that port's name; and the
// extension server answers its discovery path (`/apis/<group>/<version>`) with a 2xx within 5 s
// to at least one of five tries, asked as `system:kube-aggregator` in `system:masters` through
// the front proxy. A service the address map names (there is no cluster DNS or network here) is
// dialled at its mapped address, and its endpoints are not asked for.
import type { ClientRequest, IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { dialCause } from '../registry/core/nodes/kubelet-client.js';
import type { AggregatorProxyConfig } from './proxy.js';
import { resolveService } from './proxy.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** An APIService condition (apiregistration/v1 APIServiceCondition) without its time. */
export interface Availability {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

export type AvailabilityConfig = Pick<
  AggregatorProxyConfig,
  'lookups' | 'serviceAddresses' | 'clientCert' | 'clientKey'
> & {
  /** The discovery request's timeout (upstream's 5 s). */
  timeoutMs?: number;
};

const attempts = 5;

/** Upstream's sync for an APIService with `spec.service`; undefined for a local one. */
export async function checkAvailability(
  api: Obj,
  c: AvailabilityConfig
): Promise<Availability | undefined> {
  const spec = obj(api['spec']);
  const ref = obj(spec['service']);
  const name = str(ref['name']);
  if (!name) return undefined;
  const namespace = str(ref['namespace']);
  const port = typeof ref['port'] === 'number' ? ref['port'] : 443;
  const where = `service/${name} in "${namespace}"`;
  const mapped = `${name}.${namespace}.svc` in c.serviceAddresses;
  const mappedPort = `${name}.${namespace}.svc:${port}` in c.serviceAddresses;
  if (!mapped && !mappedPort) {
    const service = c.lookups.service(namespace, name);
    if (!service)
      return { status: 'False', reason: 'ServiceNotFound', message: `${where} is not present` };
    const svcSpec = obj(service['spec']);
    if ((str(svcSpec['type']) || 'ClusterIP') === 'ClusterIP') {
      const svcPort = arr(svcSpec['ports'])
        .map(obj)
        .find((p) => p['port'] === port);
      if (!svcPort) {
        const message = `${where} is not listening on port ${port}`;
        return { status: 'False', reason: 'ServicePortError', message };
      }
      const portName = str(svcPort['name']);
      const slices = c.lookups.endpointSlices(namespace, name);
      if (slices.length === 0) {
        const message = `cannot find endpointslices for ${where}`;
        return { status: 'False', reason: 'EndpointsNotFound', message };
      }
      if (!slices.some((s) => hasAvailableEndpoint(s, portName))) {
        const message = `endpointslices for ${where} have no addresses with port name "${portName}"`;
        return { status: 'False', reason: 'MissingEndpoints', message };
      }
    }
  }
  const path =
    api['metadata'] && obj(api['metadata'])['name'] === 'v1.'
      ? `/api/${str(spec['version'])}`
      : `/apis/${str(spec['group'])}/${str(spec['version'])}`;
  const results = await Promise.all(
    Array.from({ length: attempts }, () => probe({ namespace, name, port }, spec, path, c))
  );
  const failure = results.every((r) => r !== undefined) ? results[attempts - 1] : undefined;
  if (failure !== undefined)
    return { status: 'False', reason: 'FailedDiscoveryCheck', message: failure };
  return { status: 'True', reason: 'Passed', message: 'all checks passed' };
}

/** upstream's hasAvailableEndpoint: a ready endpoint, and the port of that name. */
function hasAvailableEndpoint(slice: Obj, portName: string): boolean {
  const ready = arr(slice['endpoints'])
    .map(obj)
    .some((e) => obj(e['conditions'])['ready'] !== false);
  const port = arr(slice['ports'])
    .map(obj)
    .some((p) => str(p['name']) === portName && typeof p['port'] === 'number');
  return ready && port;
}

/**
 * A GET to an APIService's extension server as the aggregator itself asks it (the availability
 * probe, the discovery fetch): as `system:kube-aggregator` in `system:masters` through the front
 * proxy, the server checked against the APIService's caBundle unless insecureSkipTLSVerify.
 */
export function aggregatorGet(
  to: { host: string; port: number; namespace: string; name: string },
  spec: Obj,
  path: string,
  c: Pick<AvailabilityConfig, 'clientCert' | 'clientKey'>,
  headers: Record<string, string>,
  onResponse: (res: IncomingMessage) => void
): ClientRequest {
  const caBundle = str(spec['caBundle']);
  return request(
    {
      host: to.host,
      port: to.port,
      method: 'GET',
      path,
      headers: {
        ...headers,
        'X-Remote-User': 'system:kube-aggregator',
        'X-Remote-Group': 'system:masters',
      },
      servername: `${to.name}.${to.namespace}.svc`,
      rejectUnauthorized: spec['insecureSkipTLSVerify'] !== true,
      ...(caBundle ? { ca: Buffer.from(caBundle, 'base64') } : {}),
      ...(c.clientCert && c.clientKey ? { cert: c.clientCert, key: c.clientKey } : {}),
      agent: false,
    },
    onResponse
  );
}

/** One discovery request; undefined when it answered 2xx, else upstream's message. */
function probe(
  ref: { namespace: string; name: string; port: number },
  spec: Obj,
  path: string,
  c: AvailabilityConfig
): Promise<string | undefined> {
  const target = resolveService(ref, c);
  if (target instanceof Error) return Promise.resolve(target.message);
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  const url = `https://${host}:${target.port}${path}`;
  const timeoutMs = c.timeoutMs ?? 5000;
  return new Promise((resolve) => {
    const req = aggregatorGet({ ...ref, ...target }, spec, path, c, {}, (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 300 ? undefined : `bad status from ${url}: ${code}`);
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(
        Object.assign(
          new Error('context deadline exceeded (Client.Timeout exceeded while awaiting headers)'),
          {
            code: 'TIMEOUT',
          }
        )
      )
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve(
        `failing or missing response from ${url}: Get "${url}": ${dialCause(err, new URL(url))}`
      )
    );
    req.end();
  });
}

/**
 * The status with `next` as its Available condition (upstream's SetAPIServiceCondition: the
 * transition time moves only when the status does), or undefined when nothing changes.
 */
export function withAvailability(status: unknown, next: Availability, now: Date): Obj | undefined {
  const conditions = arr(obj(status)['conditions']).map(obj);
  const current = conditions.find((c) => c['type'] === 'Available');
  if (
    current &&
    current['status'] === next.status &&
    current['reason'] === next.reason &&
    current['message'] === next.message
  )
    return undefined;
  const time =
    current && current['status'] === next.status
      ? current['lastTransitionTime']
      : now.toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = {
    type: 'Available',
    status: next.status,
    lastTransitionTime: time,
    reason: next.reason,
    message: next.message,
  };
  return {
    ...obj(status),
    conditions: current
      ? conditions.map((c) => (c === current ? condition : c))
      : [...conditions, condition],
  };
}
