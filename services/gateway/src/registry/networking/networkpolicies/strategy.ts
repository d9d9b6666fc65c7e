// NetworkPolicies (k8s pkg/registry/networking/networkpolicy/strategy.go, pkg/apis/networking/
// validation ValidateNetworkPolicySpec): selectors, ports (protocol, number or name, endPort),
// peers (ipBlock alone, or pod and namespace selectors), policyTypes.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { validateLabelSelector } from '../../admissionregistration/validate-label-selector.js';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { supportedProtocols } from '../../core/validation.js';
import { isObject, list, obj, str } from '../../unstructured.js';
import type { Json } from '../../unstructured.js';
import { isValidCIDR, isValidPortName, isValidPortNum } from '../../validation.js';

const policyTypes = ['Ingress', 'Egress'];

function validatePort(port: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const protocol = port['protocol'];
  if (protocol !== undefined && !supportedProtocols.includes(protocol as never))
    errs.push(fieldNotSupported(path.child('protocol'), protocol, supportedProtocols));
  const p = port['port'];
  const endPort = port['endPort'];
  if (typeof p === 'number') {
    for (const m of isValidPortNum(p)) errs.push(fieldInvalid(path.child('port'), p, m));
    if (typeof endPort === 'number') {
      if (endPort < p)
        errs.push(
          fieldInvalid(path.child('endPort'), endPort, 'must be greater than or equal to `port`')
        );
      for (const m of isValidPortNum(endPort))
        errs.push(fieldInvalid(path.child('endPort'), endPort, m));
    }
  } else if (typeof p === 'string') {
    for (const m of isValidPortName(p)) errs.push(fieldInvalid(path.child('port'), p, m));
    if (endPort !== undefined)
      errs.push(
        fieldInvalid(
          path.child('endPort'),
          endPort,
          'may not be specified when `port` is non-numeric'
        )
      );
  } else if (endPort !== undefined)
    errs.push(
      fieldInvalid(
        path.child('endPort'),
        endPort,
        'may not be specified when `port` is not specified'
      )
    );
  return errs;
}

function validatePeer(peer: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const selectors = ['podSelector', 'namespaceSelector'].filter((k) => isObject(peer[k]));
  for (const k of selectors) errs.push(...validateLabelSelector(peer[k], {}, path.child(k)));
  const ipBlock = peer['ipBlock'];
  if (isObject(ipBlock)) {
    if (selectors.length > 0)
      errs.push(fieldForbidden(path, 'may not specify both ipBlock and another peer'));
    const cidr = str(ipBlock['cidr']);
    const cp = path.child('ipBlock', 'cidr');
    if (!cidr) errs.push(fieldRequired(cp, ''));
    else if (!isValidCIDR(cidr))
      errs.push(
        fieldInvalid(cp, cidr, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')
      );
    list(ipBlock['except']).forEach((e, i) => {
      const ep = path.child('ipBlock', 'except').index(i);
      if (!isValidCIDR(str(e)))
        errs.push(
          fieldInvalid(ep, e, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')
        );
    });
  } else if (selectors.length === 0) errs.push(fieldRequired(path, 'must specify a peer'));
  return errs;
}

/** ValidateNetworkPolicySpec. */
export function validateNetworkPolicy(np: ApiObject): FieldError[] {
  const spec = obj(np['spec']);
  const path = newPath('spec');
  const errs = validateLabelSelector(spec['podSelector'], {}, path.child('podSelector'));
  for (const [dir, peers] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const)
    list(spec[dir]).forEach((r, i) => {
      const rule = obj(r);
      const rp = path.child(dir).index(i);
      list(rule['ports']).forEach((p, j) =>
        errs.push(...validatePort(obj(p), rp.child('ports').index(j)))
      );
      list(rule[peers]).forEach((p, j) =>
        errs.push(...validatePeer(obj(p), rp.child(peers).index(j)))
      );
    });
  const types = list(spec['policyTypes']);
  if (types.length > policyTypes.length)
    return [
      ...errs,
      fieldInvalid(path.child('policyTypes'), types, 'may not specify more than two policyTypes'),
    ];
  types.forEach((t, i) => {
    if (!policyTypes.includes(String(t)))
      errs.push(fieldNotSupported(path.child('policyTypes').index(i), t, policyTypes));
  });
  return errs;
}

/** SetDefaults_NetworkPolicy: without policyTypes, Ingress, and Egress when there are egress rules. */
export function defaultPolicyTypes(np: ApiObject): void {
  const spec = obj(np['spec']);
  if (list(spec['policyTypes']).length > 0 || !isObject(np['spec'])) return;
  spec['policyTypes'] = list(spec['egress']).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
}

export const networkPolicyStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  prepareForCreate: defaultPolicyTypes,
  prepareForUpdate: defaultPolicyTypes,
  validate: validateNetworkPolicy,
  validateUpdate: validateNetworkPolicy,
};
