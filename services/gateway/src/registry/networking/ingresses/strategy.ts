// Ingresses (k8s pkg/registry/networking/ingress/strategy.go, pkg/apis/networking/validation
// ValidateIngressCreate / ValidateIngressSpec / ValidateIngressStatusUpdate): a default backend or
// rules; backends name a service (with a port name or number) or a resource, never both;
// hosts are DNS names (a leading wildcard allowed), not IPs; paths by their pathType; the class
// in ingressClassName or the legacy annotation, not both. Status through the subresource.
import { fieldInvalid, fieldNotSupported, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isDNS1123Subdomain, sameJson } from '@orch/apimachinery/meta';
import { isDNS1035Label } from '../../admissionregistration/validate-webhook-configuration.js';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { isObject, list, obj, str } from '../../unstructured.js';
import type { Json } from '../../unstructured.js';
import { isValidIP, isValidPortName, isValidPortNum } from '../../validation.js';

export const annotationIngressClass = 'kubernetes.io/ingress.class';
const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];

/** IsWildcardDNS1123Subdomain or IsDNS1123Subdomain, as a host may be. */
export function validateHost(host: string, path: FieldPath): FieldError[] {
  if (host.startsWith('*.')) {
    const rest = host.slice(2);
    return isDNS1123Subdomain(rest).length === 0
      ? []
      : [
          fieldInvalid(
            path,
            host,
            "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
          ),
        ];
  }
  return isDNS1123Subdomain(host).map((m) => fieldInvalid(path, host, m));
}

/** validateIngressBackend. */
export function validateIngressBackend(backend: Json, path: FieldPath): FieldError[] {
  const resource = backend['resource'];
  const service = backend['service'];
  if (isObject(resource) && isObject(service))
    return [fieldInvalid(path, '', 'cannot set both resource and service backends')];
  if (isObject(resource)) {
    const errs: FieldError[] = [];
    const p = path.child('resource');
    if (!str(resource['name'])) errs.push(fieldRequired(p.child('name'), ''));
    if (!str(resource['kind'])) errs.push(fieldRequired(p.child('kind'), ''));
    if (resource['apiGroup'] !== undefined && !str(resource['apiGroup']))
      errs.push(fieldInvalid(p.child('apiGroup'), resource['apiGroup'], 'must not be empty'));
    return errs;
  }
  if (isObject(service)) {
    const errs: FieldError[] = [];
    const name = str(service['name']);
    const namePath = path.child('service', 'name');
    if (!name) errs.push(fieldRequired(namePath, ''));
    else for (const m of isDNS1035Label(name)) errs.push(fieldInvalid(namePath, name, m));
    const port = obj(service['port']);
    const portName = str(port['name']);
    const portNumber = typeof port['number'] === 'number' ? port['number'] : 0;
    if (portName && portNumber)
      errs.push(fieldInvalid(path, '', 'cannot set both port name & port number'));
    else if (portName)
      for (const m of isValidPortName(portName))
        errs.push(fieldInvalid(path.child('service', 'port', 'name'), portName, m));
    else if (portNumber)
      for (const m of isValidPortNum(portNumber))
        errs.push(fieldInvalid(path.child('service', 'port', 'number'), portNumber, m));
    else errs.push(fieldRequired(path, 'port name or number is required'));
    return errs;
  }
  return [fieldInvalid(path, '', 'resource or service backend is required')];
}

function validateHTTPIngressPath(p: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = p['pathType'];
  const value = str(p['path']);
  if (type === undefined || type === '')
    return [fieldRequired(path.child('pathType'), 'pathType must be specified')];
  if (!pathTypes.includes(String(type)))
    errs.push(fieldNotSupported(path.child('pathType'), type, pathTypes));
  else if (type === 'Exact' || type === 'Prefix') {
    if (!value.startsWith('/'))
      errs.push(fieldInvalid(path.child('path'), value, 'must be an absolute path'));
    for (const seq of invalidPathSequences)
      if (value.includes(seq))
        errs.push(fieldInvalid(path.child('path'), value, `must not contain '${seq}'`));
    for (const suffix of invalidPathSuffixes)
      if (value.endsWith(suffix))
        errs.push(fieldInvalid(path.child('path'), value, `cannot end with '${suffix}'`));
  } else if (value !== '' && !value.startsWith('/'))
    errs.push(fieldInvalid(path.child('path'), value, 'must be an absolute path'));
  errs.push(...validateIngressBackend(obj(p['backend']), path.child('backend')));
  return errs;
}

/** ValidateIngressSpec (networking/v1 options). */
export function validateIngressSpec(spec: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const rules = list(spec['rules']);
  if (isObject(spec['defaultBackend']))
    errs.push(...validateIngressBackend(spec['defaultBackend'], path.child('defaultBackend')));
  else if (rules.length === 0)
    errs.push(
      fieldInvalid(
        path,
        spec['rules'] ?? null,
        'either `defaultBackend` or `rules` must be specified'
      )
    );
  rules.forEach((r, i) => {
    const rule = obj(r);
    const rp = path.child('rules').index(i);
    const host = str(rule['host']);
    if (host) {
      if (isValidIP(host))
        errs.push(fieldInvalid(rp.child('host'), host, 'must be a DNS name, not an IP address'));
      else errs.push(...validateHost(host, rp.child('host')));
    }
    if (isObject(rule['http'])) {
      const paths = list(rule['http']['paths']);
      const hp = rp.child('http', 'paths');
      if (paths.length === 0) errs.push(fieldRequired(hp, ''));
      paths.forEach((p, j) => errs.push(...validateHTTPIngressPath(obj(p), hp.index(j))));
    }
  });
  list(spec['tls']).forEach((t, i) => {
    list(obj(t)['hosts']).forEach((h, j) =>
      errs.push(...validateHost(str(h), path.child('tls').index(i).child('hosts').index(j)))
    );
  });
  const className = spec['ingressClassName'];
  if (typeof className === 'string')
    for (const m of isDNS1123Subdomain(className))
      errs.push(fieldInvalid(path.child('ingressClassName'), className, m));
  return errs;
}

/** ValidateIngressLoadBalancerStatus. */
export function validateIngressStatus(ing: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const p = newPath('status', 'loadBalancer', 'ingress');
  list(obj(obj(ing['status'])['loadBalancer'])['ingress']).forEach((x, i) => {
    const e = obj(x);
    if (str(e['ip']) && !isValidIP(str(e['ip'])))
      errs.push(fieldInvalid(p.index(i).child('ip'), e['ip'], 'must be a valid IP address'));
    if (str(e['hostname'])) {
      for (const m of isDNS1123Subdomain(str(e['hostname'])))
        errs.push(fieldInvalid(p.index(i).child('hostname'), e['hostname'], m));
      if (isValidIP(str(e['hostname'])))
        errs.push(
          fieldInvalid(
            p.index(i).child('hostname'),
            e['hostname'],
            'must be a DNS name, not an IP address'
          )
        );
    }
  });
  return errs;
}

/** ValidateIngressCreate: the spec and the class given in only one place. */
export function validateIngress(ing: ApiObject): FieldError[] {
  const spec = obj(ing['spec']);
  const errs = validateIngressSpec(spec, newPath('spec'));
  const annotation = obj(ing.metadata.annotations)[annotationIngressClass];
  if (typeof spec['ingressClassName'] === 'string' && annotation !== undefined)
    errs.push(
      fieldInvalid(
        newPath('metadata', 'annotations').key(annotationIngressClass),
        annotation,
        'can not be set when the class field is also set'
      )
    );
  return errs;
}

export const ingressStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validate: validateIngress,
  validateUpdate: (next, old) => [
    ...validateIngressSpec(obj(next['spec']), newPath('spec')),
    ...(sameJson(next['status'], old['status']) ? [] : validateIngressStatus(next)),
  ],
};
