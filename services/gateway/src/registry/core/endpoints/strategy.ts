// Endpoints (k8s pkg/registry/core/endpoint/strategy.go, ValidateEndpoints): each subset with
// addresses, each address a routable IP, each port numbered, named when there are several, with
// a supported protocol; no status.
import {
  fieldDuplicate,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isDNS1123Label } from '@orch/apimachinery/meta';
import { isIP } from 'node:net';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { isObject, listAt } from '../../unstructured.js';

function validateAddress(a: unknown, p: FieldPath): FieldError[] {
  const addr = isObject(a) ? a : {};
  const ip = typeof addr['ip'] === 'string' ? addr['ip'] : '';
  const errs: FieldError[] = [];
  if (isIP(ip) === 0) {
    errs.push(fieldInvalid(p.child('ip'), ip, 'must be a valid IP address'));
  } else if (/^127\./.test(ip) || ip === '::1') {
    errs.push(
      fieldInvalid(p.child('ip'), ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)')
    );
  } else if (/^169\.254\./.test(ip) || /^fe[89ab]/i.test(ip)) {
    errs.push(
      fieldInvalid(
        p.child('ip'),
        ip,
        'may not be in the link-local range (169.254.0.0/16, fe80::/10)'
      )
    );
  } else if (/^224\.0\.0\./.test(ip) || /^ff02:/i.test(ip)) {
    errs.push(
      fieldInvalid(
        p.child('ip'),
        ip,
        'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'
      )
    );
  }
  if (typeof addr['hostname'] === 'string' && addr['hostname'] !== '')
    for (const m of isDNS1123Label(addr['hostname']))
      errs.push(fieldInvalid(p.child('hostname'), addr['hostname'], m));
  return errs;
}

function validateEndpoints(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  listAt(obj, 'subsets').forEach((ss, i) => {
    const p = newPath('subsets').index(i);
    const addresses = listAt(ss, 'addresses');
    const notReady = listAt(ss, 'notReadyAddresses');
    if (addresses.length === 0 && notReady.length === 0)
      errs.push(fieldRequired(p, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateAddress(a, p.child('addresses').index(j))));
    notReady.forEach((a, j) =>
      errs.push(...validateAddress(a, p.child('notReadyAddresses').index(j)))
    );
    const ports = listAt(ss, 'ports');
    const names = new Set<string>();
    ports.forEach((port, j) => {
      const pp = p.child('ports').index(j);
      const o = isObject(port) ? port : {};
      const name = typeof o['name'] === 'string' ? o['name'] : '';
      if (ports.length > 1 && name === '') errs.push(fieldRequired(pp.child('name'), ''));
      else if (name !== '') {
        for (const m of isDNS1123Label(name)) errs.push(fieldInvalid(pp.child('name'), name, m));
        if (names.has(name)) errs.push(fieldDuplicate(pp.child('name'), name));
        names.add(name);
      }
      const n = o['port'];
      if (typeof n !== 'number' || n < 1 || n > 65535 || !Number.isInteger(n))
        errs.push(fieldInvalid(pp.child('port'), n, 'must be between 1 and 65535, inclusive'));
      const proto = o['protocol'];
      if (proto === undefined || proto === '') errs.push(fieldRequired(pp.child('protocol'), ''));
      else if (!['TCP', 'UDP', 'SCTP'].includes(String(proto)))
        errs.push(fieldNotSupported(pp.child('protocol'), proto, ['SCTP', 'TCP', 'UDP']));
    });
  });
  return errs;
}

export const endpointsStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateEndpoints,
  validateUpdate: validateEndpoints,
};
