// IngressClasses (k8s pkg/registry/networking/ingressclass/strategy.go, pkg/apis/networking/
// validation ValidateIngressClass / ValidateIngressClassUpdate): a domain-prefixed controller of
// at most 250 characters, immutable; parameters with kind, name and a scope that decides
// whether a namespace is required or forbidden.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  fieldTooLong,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isDNS1123Label, isDNS1123Subdomain } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { isObject, obj, str } from '../../unstructured.js';
import { immutable } from '../../validation.js';

export const maxIngressClassControllerLen = 250;

/** ValidateDomainPrefixedPath: `<dns subdomain>/<path>`. */
function validateDomainPrefixedPath(value: string, path: ReturnType<typeof newPath>): FieldError[] {
  const slash = value.indexOf('/');
  if (slash < 0)
    return [fieldInvalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const domain = value.slice(0, slash);
  const errs = isDNS1123Subdomain(domain).map((m) => fieldInvalid(path, domain, m));
  const rest = value.slice(slash + 1);
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(rest))
    errs.push(fieldInvalid(path, rest, 'Invalid path'));
  return errs;
}

/** ValidateIngressClass. */
export function validateIngressClass(ic: ApiObject): FieldError[] {
  const spec = obj(ic['spec']);
  const path = newPath('spec');
  const errs: FieldError[] = [];
  const controller = str(spec['controller']);
  if (controller.length > maxIngressClassControllerLen)
    errs.push(fieldTooLong(path.child('controller'), maxIngressClassControllerLen));
  if (!controller) errs.push(fieldRequired(path.child('controller'), ''));
  else errs.push(...validateDomainPrefixedPath(controller, path.child('controller')));
  const params = spec['parameters'];
  if (isObject(params)) {
    const p = path.child('parameters');
    if (!str(params['kind'])) errs.push(fieldRequired(p.child('kind'), ''));
    if (!str(params['name'])) errs.push(fieldRequired(p.child('name'), ''));
    if (params['apiGroup'] !== undefined)
      for (const m of isDNS1123Subdomain(str(params['apiGroup'])))
        errs.push(fieldInvalid(p.child('apiGroup'), params['apiGroup'], m));
    const scope = params['scope'];
    if (scope === undefined) errs.push(fieldRequired(p.child('scope'), ''));
    else if (scope === 'Namespace') {
      if (!str(params['namespace']))
        errs.push(fieldRequired(p.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
      else
        for (const m of isDNS1123Label(str(params['namespace'])))
          errs.push(fieldInvalid(p.child('namespace'), params['namespace'], m));
    } else if (scope === 'Cluster') {
      if (params['namespace'] !== undefined)
        errs.push(fieldForbidden(p.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
    } else errs.push(fieldNotSupported(p.child('scope'), scope, ['Cluster', 'Namespace']));
  }
  return errs;
}

export const ingressClassStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateIngressClass,
  validateUpdate: (next, old) => [
    ...validateIngressClass(next),
    ...immutable(
      obj(next['spec'])['controller'],
      obj(old['spec'])['controller'],
      newPath('spec', 'controller')
    ),
  ],
};
