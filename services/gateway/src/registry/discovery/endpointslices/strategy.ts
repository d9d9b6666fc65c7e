// EndpointSlices (k8s pkg/registry/discovery/endpointslice/strategy.go, pkg/apis/discovery/
// validation ValidateEndpointSliceCreate / ValidateEndpointSliceUpdate): an addressType of
// IPv4, IPv6 or FQDN, immutable; 1 to 100 addresses per endpoint valid for that type, at most
// 1000 endpoints and 20000 ports; port names DNS labels and unique; protocols.
import {
  fieldDuplicate,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  fieldTooMany,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isDNS1123Subdomain } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { validateProtocol } from '../../core/validation.js';
import { list, obj, str } from '../../unstructured.js';
import { dnsLabel, immutable, isValidIP } from '../../validation.js';

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
export const maxEndpoints = 1000;
export const maxPorts = 20000;
export const maxAddresses = 100;

function validateAddress(
  type: string,
  address: string,
  path: ReturnType<typeof newPath>
): FieldError[] {
  if (type === 'FQDN')
    return isDNS1123Subdomain(address).map((m) => fieldInvalid(path, address, m));
  const ok = isValidIP(address) && (type === 'IPv4') === !address.includes(':');
  return ok ? [] : [fieldInvalid(path, address, `must be a valid ${type} address`)];
}

/** ValidateEndpointSlice. */
export function validateEndpointSlice(slice: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(slice['addressType']);
  if (!type) errs.push(fieldRequired(newPath('addressType'), ''));
  else if (!addressTypes.includes(type))
    errs.push(fieldNotSupported(newPath('addressType'), type, addressTypes));
  const endpoints = list(slice['endpoints']);
  if (endpoints.length > maxEndpoints)
    errs.push(fieldTooMany(newPath('endpoints'), endpoints.length, maxEndpoints));
  endpoints.forEach((e, i) => {
    const ep = obj(e);
    const p = newPath('endpoints').index(i);
    const addresses = list(ep['addresses']);
    if (addresses.length === 0)
      errs.push(fieldRequired(p.child('addresses'), 'must contain at least 1 address'));
    else if (addresses.length > maxAddresses)
      errs.push(fieldTooMany(p.child('addresses'), addresses.length, maxAddresses));
    if (addressTypes.includes(type))
      addresses.forEach((a, j) =>
        errs.push(...validateAddress(type, str(a), p.child('addresses').index(j)))
      );
    if (ep['hostname'] !== undefined)
      errs.push(...dnsLabel(str(ep['hostname']), p.child('hostname')));
    if (ep['nodeName'] !== undefined)
      for (const m of isDNS1123Subdomain(str(ep['nodeName'])))
        errs.push(fieldInvalid(p.child('nodeName'), ep['nodeName'], m));
  });
  const ports = list(slice['ports']);
  if (ports.length > maxPorts) errs.push(fieldTooMany(newPath('ports'), ports.length, maxPorts));
  const names = new Set<string>();
  ports.forEach((x, i) => {
    const port = obj(x);
    const p = newPath('ports').index(i);
    const name = str(port['name']);
    if (name !== '') errs.push(...dnsLabel(name, p.child('name')));
    if (names.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
    names.add(name);
    if (port['protocol'] !== undefined)
      errs.push(...validateProtocol(port['protocol'], p.child('protocol')));
    if (typeof port['port'] === 'number' && (port['port'] < 0 || port['port'] > 65535))
      errs.push(
        fieldInvalid(p.child('port'), port['port'], 'must be between 0 and 65535, inclusive')
      );
  });
  return errs;
}

export const endpointSliceStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateEndpointSlice,
  validateUpdate: (next, old) => [
    ...validateEndpointSlice(next),
    ...immutable(next['addressType'], old['addressType'], newPath('addressType')),
  ],
};
