// The parts shared by webhooks and policies, as k8s pkg/apis/admissionregistration/validation:
// validateRuleWithOperations (operations, apiGroups, apiVersions, resources and their wildcard
// rules, scope), validateMatchConditions, validateNamedRuleWithOperations, validateMatchResources,
// and the seam for the expression compile check (`ExpressionCheck`).
import {
  fieldDuplicate,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  fieldTooMany,
} from '@orch/apimachinery/errors';
import type { AdmissionExpressionContext } from '@orch/apimachinery/cel';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isQualifiedName, isValidPathSegmentName } from '@orch/apimachinery/meta';
import { validateLabelSelector } from './validate-label-selector.js';

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strings = (v: unknown): string[] => list(v).map((s) => String(s));
export const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'] as const;
export const supportedScopes = ['*', 'Cluster', 'Namespaced'] as const;
export const supportedFailurePolicies = ['Fail', 'Ignore'] as const;
export const supportedMatchPolicies = ['Equivalent', 'Exact'] as const;
export const maxMatchConditions = 64;

/**
 * The compile check of one expression (upstream validation compiles every expression with the
 * CEL environment of its kind and reports errors as `Invalid` at `path`): the strategies pass
 * `checkAdmissionExpression` of `@orch/apimachinery/cel`; without one, the structure of the
 * expressions is validated here and their compilation is not (the pure tables of this folder).
 */
export type ExpressionCheck = (
  expression: string,
  ctx: AdmissionExpressionContext,
  path: FieldPath
) => FieldError[];

export interface ExpressionOptions {
  checkExpression?: ExpressionCheck;
  /** Expressions of the stored object (updates). */
  preexistingExpressions?: ReadonlySet<string>;
}

export function checkExpression(
  opts: ExpressionOptions,
  expression: string,
  ctx: Omit<AdmissionExpressionContext, 'preexisting'>,
  path: FieldPath
): FieldError[] {
  if (!opts.checkExpression) return [];
  const preexisting = opts.preexistingExpressions?.has(expression) ?? false;
  return opts.checkExpression(expression, { ...ctx, preexisting }, path);
}

const hasWildcard = (xs: readonly string[]): boolean => xs.includes('*');

/** validateResources: `*`, `*\/*`, `x/*` and `*\/y` and what they may not be listed with. */
export function validateResources(resources: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldRequired(path, ''));
  const resourcesWithWildcardSubresources = new Set<string>();
  const subresourcesWithWildcardResource = new Set<string>();
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(fieldRequired(path.index(i), ''));
      return;
    }
    if (resSub === '*/*') hasDoubleWildcard = true;
    if (resSub === '*') hasSingleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      hasResourceWithoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (resourcesWithWildcardSubresources.has(res))
      errs.push(
        fieldInvalid(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`)
      );
    if (subresourcesWithWildcardResource.has(sub))
      errs.push(
        fieldInvalid(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`)
      );
    if (sub === '*') resourcesWithWildcardSubresources.add(res);
    if (res === '*') subresourcesWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && hasDoubleWildcard)
    errs.push(
      fieldInvalid(path, resources, "if '*/*' is present, must not specify other resources")
    );
  if (hasSingleWildcard && hasResourceWithoutSubresource)
    errs.push(
      fieldInvalid(
        path,
        resources,
        "if '*' is present, must not specify other resources without subresources"
      )
    );
  return errs;
}

/** validateRule: the inline Rule of a RuleWithOperations, at the same path. */
export function validateRule(rule: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const groups = strings(rule['apiGroups']);
  if (groups.length === 0) errs.push(fieldRequired(path.child('apiGroups'), ''));
  if (groups.length > 1 && hasWildcard(groups))
    errs.push(
      fieldInvalid(
        path.child('apiGroups'),
        groups,
        "if '*' is present, must not specify other API groups"
      )
    );
  const versions = strings(rule['apiVersions']);
  if (versions.length === 0) errs.push(fieldRequired(path.child('apiVersions'), ''));
  if (versions.length > 1 && hasWildcard(versions))
    errs.push(
      fieldInvalid(
        path.child('apiVersions'),
        versions,
        "if '*' is present, must not specify other API versions"
      )
    );
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldRequired(path.child('apiVersions').index(i), ''));
  });
  errs.push(...validateResources(strings(rule['resources']), path.child('resources')));
  const scope = rule['scope'];
  if (scope !== undefined && !(supportedScopes as readonly unknown[]).includes(scope))
    errs.push(fieldNotSupported(path.child('scope'), scope, supportedScopes));
  return errs;
}

export function validateRuleWithOperations(rule: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(rule['operations']);
  if (ops.length === 0) errs.push(fieldRequired(path.child('operations'), ''));
  if (ops.length > 1 && hasWildcard(ops))
    errs.push(
      fieldInvalid(
        path.child('operations'),
        ops,
        "if '*' is present, must not specify other operations"
      )
    );
  ops.forEach((op, i) => {
    if (!(supportedOperations as readonly string[]).includes(op))
      errs.push(fieldNotSupported(path.child('operations').index(i), op, supportedOperations));
  });
  errs.push(...validateRule(rule, path));
  return errs;
}

export function validateMatchConditions(
  conditions: unknown,
  kind: 'webhookMatchCondition' | 'policyMatchCondition',
  ctx: { hasParams: boolean; variables: readonly string[] },
  opts: ExpressionOptions,
  path: FieldPath
): FieldError[] {
  const errs: FieldError[] = [];
  const items = list(conditions);
  if (items.length > maxMatchConditions)
    errs.push(fieldTooMany(path, items.length, maxMatchConditions));
  const names = new Set<string>();
  items.forEach((item, i) => {
    const c = isObject(item) ? item : {};
    const p = path.index(i);
    const expression = text(c['expression']).trim();
    if (expression === '') errs.push(fieldRequired(p.child('expression'), ''));
    else errs.push(...checkExpression(opts, expression, { kind, ...ctx }, p.child('expression')));
    const name = text(c['name']);
    if (name === '') errs.push(fieldRequired(p.child('name'), ''));
    else
      for (const msg of isQualifiedName(name)) errs.push(fieldInvalid(p.child('name'), name, msg));
    if (name !== '') {
      if (names.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

export function validateNamedRuleWithOperations(rule: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  strings(rule['resourceNames']).forEach((name, i) => {
    const p = path.child('resourceNames').index(i);
    for (const msg of isValidPathSegmentName(name)) errs.push(fieldInvalid(p, name, msg));
    if (seen.has(name)) errs.push(fieldDuplicate(p, name));
    else seen.add(name);
  });
  errs.push(...validateRuleWithOperations(rule, path));
  return errs;
}

/** validateMatchResources: selectors strictly (no ratcheting: the type came after the fix), rules. */
export function validateMatchResources(mr: unknown, path: FieldPath): FieldError[] {
  if (!isObject(mr)) return [];
  const errs: FieldError[] = [];
  const policy = mr['matchPolicy'];
  if (policy === undefined) errs.push(fieldRequired(path.child('matchPolicy'), ''));
  else if (!(supportedMatchPolicies as readonly unknown[]).includes(policy))
    errs.push(fieldNotSupported(path.child('matchPolicy'), policy, supportedMatchPolicies));
  for (const sel of ['namespaceSelector', 'objectSelector']) {
    if (mr[sel] === undefined || mr[sel] === null) errs.push(fieldRequired(path.child(sel), ''));
    else errs.push(...validateLabelSelector(mr[sel], {}, path.child(sel)));
  }
  for (const field of ['resourceRules', 'excludeResourceRules'])
    list(mr[field]).forEach((r, i) => {
      errs.push(
        ...validateNamedRuleWithOperations(isObject(r) ? r : {}, path.child(field).index(i))
      );
    });
  return errs;
}
