// Cluster IPs and node ports of Services, handed out from the configured ranges and kept in
// storage (range-allocator.ts) so that gateways never hand out the same one twice. Upstream:
// pkg/registry/core/service/storage/alloc.go (allocateCreate, allocateUpdate, initIPFamilyFields,
// releaseIPs, the transaction whose Commit or Revert the REST's finish function calls).
import { fieldInvalid, newInternalError, newInvalid, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { StorageInterface } from '@orch/apimachinery/storage';
import type { ApiObject } from '@orch/apimachinery/meta';
import { RangeAllocator } from './range-allocator.js';
import { familyOf } from './service-ranges.js';
import type { CidrRange, IpFamily, PortRange } from './service-ranges.js';
import {
  isHeadless,
  needsClusterIPs,
  needsHealthCheckNodePort,
  needsNodePorts,
  specOf,
  typeOf,
} from './strategy.js';
import type { ServiceSpec } from './strategy.js';

/** Where the bitmaps live (upstream's keys). */
export const serviceIpsKey = '/registry/ranges/serviceips';
export const secondaryServiceIpsKey = '/registry/ranges/secondaryserviceips';
export const serviceNodePortsKey = '/registry/ranges/servicenodeports';

export interface ServiceRanges {
  /** The primary range first; a second of the other family makes the cluster dual-stack. */
  clusterIPs: CidrRange[];
  nodePorts: PortRange;
}

/** What an allocation did, to keep (commit) or undo (revert) once the write is known. */
export interface AllocationTxn {
  commit(): Promise<void>;
  revert(): Promise<void>;
}

interface IpPool {
  range: CidrRange;
  alloc: RangeAllocator;
}

/** One held value: an address of a family, or a node port. */
type Held = { family: IpFamily; ip: string } | { port: number };

const spec = newPath('spec');

export class ServiceAllocator {
  readonly #pools = new Map<IpFamily, IpPool>();
  readonly #families: IpFamily[] = [];
  readonly #ports: { range: PortRange; alloc: RangeAllocator };
  readonly #onReleaseError: (err: unknown) => void;

  constructor(
    storage: StorageInterface,
    ranges: ServiceRanges,
    onReleaseError: (err: unknown) => void = () => {}
  ) {
    ranges.clusterIPs.forEach((range, i) => {
      const key = i === 0 ? serviceIpsKey : secondaryServiceIpsKey;
      this.#pools.set(range.family, {
        range,
        alloc: new RangeAllocator(storage, key, range.text, range.size),
      });
      this.#families.push(range.family);
    });
    const nodePorts = ranges.nodePorts;
    this.#ports = {
      range: nodePorts,
      alloc: new RangeAllocator(storage, serviceNodePortsKey, nodePorts.text, nodePorts.size),
    };
    this.#onReleaseError = onReleaseError;
  }

  /** beginCreate: families decided, addresses and ports handed out and set on the object. */
  async allocateCreate(obj: ApiObject, dryRun: boolean): Promise<AllocationTxn> {
    return this.allocateUpdate(obj, undefined, dryRun);
  }

  /**
   * beginUpdate (and create, without old): what the new object needs and the old did not hold
   * is handed out now; what the old held and the new drops is released on commit.
   */
  async allocateUpdate(
    obj: ApiObject,
    old: ApiObject | undefined,
    dryRun: boolean
  ): Promise<AllocationTxn> {
    const s = specOf(obj);
    const name = typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
    const oldHeld = old ? this.held(specOf(old)) : [];
    const taken: Held[] = [];
    const fail = async (errs: FieldError[] | Error): Promise<never> => {
      if (!dryRun) await this.#release(taken);
      if (errs instanceof Error) throw errs;
      throw newInvalid({ group: '', kind: 'Service' }, name, errs);
    };
    const familyErrs = this.#initIpFamilies(s);
    if (familyErrs.length > 0) return fail(familyErrs);
    try {
      if (needsClusterIPs(s) && !isHeadless(s)) {
        const errs = await this.#allocateIps(s, oldHeld, taken, dryRun);
        if (errs.length > 0) return await fail(errs);
      }
      const errs = await this.#allocatePorts(s, oldHeld, taken, dryRun);
      if (errs.length > 0) return await fail(errs);
    } catch (err) {
      return fail(err instanceof Error ? err : new Error(String(err)));
    }
    const kept = new Set(this.held(s).map(heldKey));
    const dropped = oldHeld.filter((h) => !kept.has(heldKey(h)));
    return {
      commit: async () => {
        if (!dryRun) await this.#release(dropped);
      },
      revert: async () => {
        if (!dryRun) await this.#release(taken);
      },
    };
  }

  /** What a stored Service holds (released when it goes: upstream's releaseAllocatedResources). */
  held(s: ServiceSpec): Held[] {
    const out: Held[] = [];
    if (needsClusterIPs(s) && !isHeadless(s)) {
      for (const ip of s.clusterIPs ?? []) {
        const family = familyOf(ip);
        if (family) out.push({ family, ip });
      }
    }
    if (needsNodePorts(s))
      for (const p of s.ports ?? []) if (p.nodePort) out.push({ port: p.nodePort });
    if (needsHealthCheckNodePort(s) && s.healthCheckNodePort)
      out.push({ port: s.healthCheckNodePort });
    return out;
  }

  /** Releases everything a deleted Service held. */
  async releaseService(obj: ApiObject): Promise<void> {
    await this.#release(this.held(specOf(obj)));
  }

  /** initIPFamilyFields: ipFamilyPolicy and ipFamilies decided against the cluster's ranges. */
  #initIpFamilies(s: ServiceSpec): FieldError[] {
    if (!needsClusterIPs(s)) {
      delete s.ipFamilies;
      delete s.ipFamilyPolicy;
      return [];
    }
    const errs: FieldError[] = [];
    const cluster = this.#families;
    const policy = s.ipFamilyPolicy;
    if (policy === 'RequireDualStack' && cluster.length < 2) {
      errs.push(
        fieldInvalid(
          spec.child('ipFamilyPolicy'),
          policy,
          'this cluster is not configured for dual-stack services'
        )
      );
    }
    const families = [...((s.ipFamilies ?? []) as IpFamily[])];
    const ips = isHeadless(s) ? [] : (s.clusterIPs ?? []);
    ips.forEach((ip, i) => {
      const f = familyOf(ip);
      if (!f) return;
      if (families[i] === undefined) families[i] = f;
      else if (families[i] !== f)
        errs.push(
          fieldInvalid(
            spec.child('clusterIPs').index(i),
            ip,
            `expected an ${families[i]} value as indicated by \`ipFamilies[${i}]\``
          )
        );
    });
    families.forEach((f, i) => {
      if (!cluster.includes(f) && !isHeadless(s))
        errs.push(
          fieldInvalid(spec.child('ipFamilies').index(i), f, 'not configured on this cluster')
        );
    });
    if (families.length === 0 && cluster[0]) families.push(cluster[0]);
    const decided = policy ?? 'SingleStack';
    if (decided === 'SingleStack' && families.length > 1) {
      errs.push(
        fieldInvalid(
          spec.child('ipFamilyPolicy'),
          decided,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple 'ipFamilies' are specified"
        )
      );
    }
    if (decided !== 'SingleStack' && families.length === 1 && cluster.length === 2) {
      const other = cluster.find((f) => f !== families[0]);
      if (other) families.push(other);
    }
    if (errs.length > 0) return errs;
    s.ipFamilyPolicy = decided;
    s.ipFamilies = families;
    return [];
  }

  async #allocateIps(
    s: ServiceSpec,
    oldHeld: Held[],
    taken: Held[],
    dryRun: boolean
  ): Promise<FieldError[]> {
    const families = (s.ipFamilies ?? []) as IpFamily[];
    const want = s.clusterIPs ?? [];
    const result: string[] = [];
    for (const [i, family] of families.entries()) {
      const pool = this.#pools.get(family);
      if (!pool) continue; // refused by #initIpFamilies
      const path = spec.child('clusterIPs').index(i);
      const asked = want[i];
      if (asked && oldHeld.some((h) => 'ip' in h && h.ip === asked)) {
        result.push(asked);
        continue;
      }
      let offset: number | undefined;
      if (asked) {
        offset = pool.range.offsetOf(asked);
        if (offset === undefined)
          return [
            fieldInvalid(
              path,
              asked,
              `provided IP is not in the valid range. The range of valid IPs is ${pool.range.text}`
            ),
          ];
      }
      const got = await pool.alloc.allocate(offset, dryRun);
      if (got === 'allocated')
        return [fieldInvalid(path, asked, 'provided IP is already allocated')];
      if (got === 'full')
        throw newInternalError(new Error(`failed to allocate a serviceIP: range is full`));
      const ip = pool.range.ipAt(got);
      taken.push({ family, ip });
      result.push(ip);
    }
    s.clusterIPs = result;
    if (result[0]) s.clusterIP = result[0];
    return [];
  }

  async #allocatePorts(
    s: ServiceSpec,
    oldHeld: Held[],
    taken: Held[],
    dryRun: boolean
  ): Promise<FieldError[]> {
    const { range, alloc } = this.#ports;
    const mine = new Set<number>(oldHeld.flatMap((h) => ('port' in h ? [h.port] : [])));
    const one = async (asked: number | undefined, path: ReturnType<typeof newPath>) => {
      if (asked && mine.has(asked)) return { port: asked };
      let offset: number | undefined;
      if (asked) {
        offset = range.offsetOf(asked);
        if (offset === undefined)
          return {
            err: fieldInvalid(
              path,
              asked,
              `provided port is not in the valid range. The range of valid ports is ${range.text}`
            ),
          };
      }
      const got = await alloc.allocate(offset, dryRun);
      if (got === 'allocated')
        return { err: fieldInvalid(path, asked, 'provided port is already allocated') };
      if (got === 'full')
        throw newInternalError(new Error('failed to allocate a nodePort: range is full'));
      const port = range.portAt(got);
      taken.push({ port });
      mine.add(port);
      return { port };
    };
    if (needsNodePorts(s)) {
      const allocateNew = typeOf(s) !== 'LoadBalancer' || s.allocateLoadBalancerNodePorts !== false;
      for (const [i, p] of (s.ports ?? []).entries()) {
        if (!p.nodePort && !allocateNew) continue;
        const r = await one(
          p.nodePort || undefined,
          spec.child('ports').index(i).child('nodePort')
        );
        if (r.err) return [r.err];
        p.nodePort = r.port;
      }
    }
    if (needsHealthCheckNodePort(s)) {
      const r = await one(s.healthCheckNodePort || undefined, spec.child('healthCheckNodePort'));
      if (r.err) return [r.err];
      s.healthCheckNodePort = r.port;
    }
    return [];
  }

  /** Gives values back; a failure is reported, not thrown (upstream's repair loop would fix it). */
  async #release(held: Held[]): Promise<void> {
    const ports: number[] = [];
    const ips = new Map<IpFamily, number[]>();
    for (const h of held) {
      if ('port' in h) {
        const o = this.#ports.range.offsetOf(h.port);
        if (o !== undefined) ports.push(o);
      } else {
        const o = this.#pools.get(h.family)?.range.offsetOf(h.ip);
        if (o !== undefined) ips.set(h.family, [...(ips.get(h.family) ?? []), o]);
      }
    }
    const work: Promise<void>[] = [this.#ports.alloc.release(ports)];
    for (const [family, offsets] of ips) {
      const pool = this.#pools.get(family);
      if (pool) work.push(pool.alloc.release(offsets));
    }
    for (const r of await Promise.allSettled(work)) {
      if (r.status === 'rejected') this.#onReleaseError(r.reason);
    }
  }
}

const heldKey = (h: Held): string => ('port' in h ? `port/${h.port}` : `${h.family}/${h.ip}`);
