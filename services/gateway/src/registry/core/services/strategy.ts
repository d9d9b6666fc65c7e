// Services: the strategy's pure part (upstream pkg/registry/core/service/strategy.go and
// pkg/apis/core/validation ValidateService / ValidateServiceUpdate). clusterIP and clusterIPs
// are kept in step (NormalizeClusterIPs), defaults set as SetDefaults_Service, values allocated
// earlier carried over on an update that leaves them out (patchAllocatedValues), type-dependent
// fields dropped on a type change (dropTypeDependentFields). Allocation itself, which needs
// storage, is the ServiceStore's (service-store.ts), as upstream's REST beginCreate/beginUpdate.
import {
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { familyOf } from './service-ranges.js';

export interface ServicePort {
  name?: string;
  protocol?: string;
  port?: number;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

export interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: ServicePort[];
  selector?: Record<string, string>;
  externalName?: string;
  externalTrafficPolicy?: string;
  internalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  allocateLoadBalancerNodePorts?: boolean;
  sessionAffinity?: string;
}

export const specOf = (o: ApiObject): ServiceSpec => (o['spec'] ??= {}) as ServiceSpec;

export const serviceTypes = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];
const protocols = ['TCP', 'UDP', 'SCTP'];
const policies = ['SingleStack', 'PreferDualStack', 'RequireDualStack'];

export const typeOf = (s: ServiceSpec): string => s.type ?? 'ClusterIP';
export const isHeadless = (s: ServiceSpec): boolean => s.clusterIP === 'None';
export const needsClusterIPs = (s: ServiceSpec): boolean => typeOf(s) !== 'ExternalName';
export const needsNodePorts = (s: ServiceSpec): boolean =>
  typeOf(s) === 'NodePort' || typeOf(s) === 'LoadBalancer';
export const needsHealthCheckNodePort = (s: ServiceSpec): boolean =>
  typeOf(s) === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';

/** clusterIP and clusterIPs say the same (NormalizeClusterIPs on create). */
export function normalizeClusterIPs(s: ServiceSpec, old?: ServiceSpec): void {
  const ips = s.clusterIPs ?? [];
  if (s.clusterIP && ips.length === 0) s.clusterIPs = [s.clusterIP];
  else if (!s.clusterIP && ips.length > 0) s.clusterIP = ips[0];
  else if (
    old &&
    s.clusterIP &&
    s.clusterIP !== old.clusterIP &&
    sameList(s.clusterIPs, old.clusterIPs)
  ) {
    // An older client changed clusterIP only: clusterIPs follows (and the change is then refused
    // as any change of an allocated address).
    s.clusterIPs = [s.clusterIP, ...ips.slice(1)];
  }
  if (s.clusterIPs?.length === 0) delete s.clusterIPs;
}

/** SetDefaults_Service, for what the schema's defaults do not hold. */
function setDefaults(s: ServiceSpec): void {
  for (const p of s.ports ?? []) {
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '')
      p.targetPort = p.port;
  }
  if (typeOf(s) !== 'ExternalName') s.internalTrafficPolicy ??= 'Cluster';
  if (needsNodePorts(s)) s.externalTrafficPolicy ??= 'Cluster';
  if (typeOf(s) === 'LoadBalancer') s.allocateLoadBalancerNodePorts ??= true;
}

/**
 * What an update leaves out but was allocated stays (patchAllocatedValues), and what the new
 * type has no use for goes, unless the client set it itself (dropTypeDependentFields).
 */
function patchAllocated(s: ServiceSpec, old: ServiceSpec): void {
  if (needsClusterIPs(s) && needsClusterIPs(old)) {
    if (!s.clusterIP && !s.clusterIPs?.length) {
      if (old.clusterIP !== undefined) s.clusterIP = old.clusterIP;
      if (old.clusterIPs) s.clusterIPs = [...old.clusterIPs];
    }
    if (!s.ipFamilies?.length && old.ipFamilies) s.ipFamilies = [...old.ipFamilies];
    if (!s.ipFamilyPolicy && old.ipFamilyPolicy) s.ipFamilyPolicy = old.ipFamilyPolicy;
  }
  if (needsNodePorts(s) && needsNodePorts(old)) {
    const oldByKey = new Map((old.ports ?? []).map((p) => [`${p.port}/${p.protocol}`, p]));
    for (const p of s.ports ?? []) {
      const was = oldByKey.get(`${p.port}/${p.protocol}`);
      if (!p.nodePort && was?.nodePort) p.nodePort = was.nodePort;
    }
  }
  if (needsHealthCheckNodePort(s) && needsHealthCheckNodePort(old) && !s.healthCheckNodePort)
    if (old.healthCheckNodePort) s.healthCheckNodePort = old.healthCheckNodePort;
  // dropTypeDependentFields: only values the client did not change are dropped.
  if (!needsClusterIPs(s) && needsClusterIPs(old)) {
    if (s.clusterIP === old.clusterIP) delete s.clusterIP;
    if (sameList(s.clusterIPs, old.clusterIPs)) delete s.clusterIPs;
    if (sameList(s.ipFamilies, old.ipFamilies)) delete s.ipFamilies;
    if (s.ipFamilyPolicy === old.ipFamilyPolicy) delete s.ipFamilyPolicy;
  }
  if (!needsNodePorts(s) && needsNodePorts(old)) {
    const oldPorts = new Map((old.ports ?? []).map((p) => [`${p.port}/${p.protocol}`, p.nodePort]));
    for (const p of s.ports ?? []) {
      if (p.nodePort && oldPorts.get(`${p.port}/${p.protocol}`) === p.nodePort) delete p.nodePort;
    }
    if (s.externalTrafficPolicy === old.externalTrafficPolicy) delete s.externalTrafficPolicy;
  }
  if (!needsHealthCheckNodePort(s) && s.healthCheckNodePort === old.healthCheckNodePort)
    delete s.healthCheckNodePort;
  if (
    typeOf(s) !== 'LoadBalancer' &&
    s.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts
  )
    delete s.allocateLoadBalancerNodePorts;
}

const sameList = (a?: string[], b?: string[]): boolean =>
  JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

const spec = newPath('spec');

/** ValidateService's rules for what a client sends (ports, type, IPs as text, names). */
export function validateService(obj: ApiObject): FieldError[] {
  const s = specOf(obj);
  const errs: FieldError[] = [];
  const type = typeOf(s);
  if (!serviceTypes.includes(type))
    errs.push(fieldNotSupported(spec.child('type'), type, serviceTypes));
  const ports = s.ports ?? [];
  if (ports.length === 0 && !isHeadless(s) && type !== 'ExternalName')
    errs.push(fieldRequired(spec.child('ports'), ''));
  const names = new Set<string>();
  const keys = new Set<string>();
  ports.forEach((p, i) => {
    const path = spec.child('ports').index(i);
    if (ports.length > 1 && !p.name) errs.push(fieldRequired(path.child('name'), ''));
    else if (p.name) {
      if (names.has(p.name)) errs.push(fieldDuplicate(path.child('name'), p.name));
      names.add(p.name);
    }
    if (!Number.isInteger(p.port) || (p.port ?? 0) < 1 || (p.port ?? 0) > 65535)
      errs.push(fieldInvalid(path.child('port'), p.port, 'must be between 1 and 65535, inclusive'));
    const protocol = p.protocol ?? 'TCP';
    if (!protocols.includes(protocol))
      errs.push(fieldNotSupported(path.child('protocol'), protocol, protocols));
    const key = `${p.port}/${protocol}`;
    if (keys.has(key)) errs.push(fieldDuplicate(path, { port: p.port, protocol }));
    keys.add(key);
    if (typeof p.targetPort === 'number' && (p.targetPort < 1 || p.targetPort > 65535))
      errs.push(
        fieldInvalid(
          path.child('targetPort'),
          p.targetPort,
          'must be between 1 and 65535, inclusive'
        )
      );
    if (p.nodePort !== undefined && p.nodePort !== 0) {
      if (type === 'ClusterIP' || type === 'ExternalName')
        errs.push(
          fieldForbidden(path.child('nodePort'), `may not be used when \`type\` is '${type}'`)
        );
      else if (!Number.isInteger(p.nodePort) || p.nodePort < 1 || p.nodePort > 65535)
        errs.push(
          fieldInvalid(path.child('nodePort'), p.nodePort, 'must be between 1 and 65535, inclusive')
        );
    }
  });
  const ips = s.clusterIPs ?? [];
  if (type === 'ExternalName') {
    if (s.clusterIP)
      errs.push(
        fieldForbidden(spec.child('clusterIP'), 'may not be set for ExternalName services')
      );
    if (ips.length > 0)
      errs.push(
        fieldForbidden(spec.child('clusterIPs'), 'may not be set for ExternalName services')
      );
    if (!s.externalName) errs.push(fieldRequired(spec.child('externalName'), ''));
  }
  if (ips.length > 0 && s.clusterIP !== ips[0])
    errs.push(fieldInvalid(spec.child('clusterIPs'), ips, 'first value must match `clusterIP`'));
  if (ips.length > 2)
    errs.push(fieldInvalid(spec.child('clusterIPs'), ips, 'may only hold up to 2 values'));
  ips.forEach((ip, i) => {
    const path = spec.child('clusterIPs').index(i);
    if (ip === 'None') {
      if (i > 0 || ips.length > 1)
        errs.push(
          fieldInvalid(path, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')
        );
    } else if (!familyOf(ip)) {
      errs.push(
        fieldInvalid(path, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')
      );
    }
  });
  if (
    ips.length === 2 &&
    familyOf(ips[0] ?? '') === familyOf(ips[1] ?? '') &&
    familyOf(ips[0] ?? '')
  )
    errs.push(
      fieldInvalid(
        spec.child('clusterIPs'),
        ips,
        'may specify no more than one IP for each IP family'
      )
    );
  if (isHeadless(s) && (type === 'NodePort' || type === 'LoadBalancer'))
    errs.push(
      fieldInvalid(
        spec.child('clusterIPs').index(0),
        'None',
        `may not be set to 'None' for ${type} services`
      )
    );
  if (s.ipFamilyPolicy !== undefined && !policies.includes(s.ipFamilyPolicy))
    errs.push(fieldNotSupported(spec.child('ipFamilyPolicy'), s.ipFamilyPolicy, policies));
  const families = s.ipFamilies ?? [];
  families.forEach((f, i) => {
    const path = spec.child('ipFamilies').index(i);
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(fieldNotSupported(path, f, ['IPv4', 'IPv6']));
    else if (families.indexOf(f) !== i) errs.push(fieldDuplicate(path, f));
  });
  if (s.sessionAffinity !== undefined && !['None', 'ClientIP'].includes(s.sessionAffinity))
    errs.push(
      fieldNotSupported(spec.child('sessionAffinity'), s.sessionAffinity, ['ClientIP', 'None'])
    );
  if (s.externalTrafficPolicy !== undefined) {
    if (!needsNodePorts(s))
      errs.push(
        fieldInvalid(
          spec.child('externalTrafficPolicy'),
          s.externalTrafficPolicy,
          "may only be set when `type` is 'NodePort' or 'LoadBalancer'"
        )
      );
    else if (!['Cluster', 'Local'].includes(s.externalTrafficPolicy))
      errs.push(
        fieldNotSupported(spec.child('externalTrafficPolicy'), s.externalTrafficPolicy, [
          'Cluster',
          'Local',
        ])
      );
  }
  return errs;
}

/**
 * ValidateServiceUpdate: allocated cluster IPs may not change (validateUpgradeDowngradeClusterIPs),
 * unless the type changes to or from ExternalName.
 */
export function validateServiceUpdate(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs = validateService(obj);
  const s = specOf(obj);
  const o = specOf(old);
  if (!needsClusterIPs(s) || !needsClusterIPs(o)) return errs;
  if (isHeadless(s) && isHeadless(o)) return errs;
  const now = s.clusterIPs ?? [];
  const was = o.clusterIPs ?? [];
  const path = spec.child('clusterIPs');
  if (now.length === 0 && was.length > 0) {
    errs.push(fieldInvalid(path.index(0), now, 'primary clusterIP can not be unset'));
    return errs;
  }
  for (let i = 0; i < Math.min(now.length, was.length); i++) {
    if (now[i] !== was[i]) errs.push(fieldInvalid(path.index(i), now, 'may not change once set'));
  }
  return errs;
}

const base = defaultStrategy({ hasStatus: true });

export const serviceStrategy: Strategy = {
  ...base,
  returnDeletedObject: true,
  // Service names are DNS labels (upstream: DNS-1035 labels).
  nameRule: 'label',
  prepareForCreate(obj) {
    delete obj['status'];
    const s = specOf(obj);
    normalizeClusterIPs(s);
    setDefaults(s);
  },
  prepareForUpdate(obj, old) {
    base.prepareForUpdate(obj, old);
    const s = specOf(obj);
    normalizeClusterIPs(s, specOf(old));
    patchAllocated(s, specOf(old));
    setDefaults(s);
  },
  validate: validateService,
  validateUpdate: validateServiceUpdate,
};
