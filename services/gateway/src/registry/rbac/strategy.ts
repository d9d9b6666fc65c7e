// Roles, ClusterRoles, RoleBindings and ClusterRoleBindings (k8s pkg/apis/rbac/validation):
// names are path segments (`system:basic-user`), rules need verbs and a target, bindings a
// valid and immutable roleRef. Escalation is checked separately (admission/rbac-escalation/plugin.ts).
import type { FieldError } from '@orch/apimachinery/errors';
import { sameJson } from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../strategy.js';
import type { Strategy } from '../strategy.js';

const rbacGroup = 'rbac.authorization.orch.io';

interface Rule {
  verbs?: unknown;
  apiGroups?: unknown;
  resources?: unknown;
  nonResourceURLs?: unknown;
}

const nonEmpty = (v: unknown): boolean => Array.isArray(v) && v.length > 0;

function validateRules(obj: ApiObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const rules = obj['rules'];
  if (rules === undefined || rules === null) return errs;
  if (!Array.isArray(rules))
    return [{ type: 'FieldValueInvalid', field: 'rules', message: 'must be a list', value: rules }];
  rules.forEach((r: Rule, i) => {
    const f = `rules[${i}]`;
    if (!nonEmpty(r.verbs))
      errs.push({
        type: 'FieldValueRequired',
        field: `${f}.verbs`,
        message: 'verbs must contain at least one value',
      });
    const hasUrls = nonEmpty(r.nonResourceURLs);
    if (hasUrls && namespaced)
      errs.push({
        type: 'FieldValueInvalid',
        field: `${f}.nonResourceURLs`,
        message: 'namespaced rules cannot apply to non-resource URLs',
        value: r.nonResourceURLs,
      });
    if (hasUrls && (nonEmpty(r.apiGroups) || nonEmpty(r.resources))) {
      errs.push({
        type: 'FieldValueInvalid',
        field: `${f}.nonResourceURLs`,
        message: 'rules cannot apply to both regular resources and non-resource URLs',
        value: r.nonResourceURLs,
      });
    }
    if (!hasUrls) {
      if (!nonEmpty(r.apiGroups))
        errs.push({
          type: 'FieldValueRequired',
          field: `${f}.apiGroups`,
          message: 'resource rules must supply at least one api group',
        });
      if (!nonEmpty(r.resources))
        errs.push({
          type: 'FieldValueRequired',
          field: `${f}.resources`,
          message: 'resource rules must supply at least one resource',
        });
    }
  });
  return errs;
}

function validateBinding(obj: ApiObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = (obj['roleRef'] ?? {}) as { apiGroup?: string; kind?: string; name?: string };
  if (ref.apiGroup !== rbacGroup)
    errs.push({
      type: 'FieldValueNotSupported',
      field: 'roleRef.apiGroup',
      message: `supported values: "${rbacGroup}"`,
      value: ref.apiGroup ?? '',
    });
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind ?? ''))
    errs.push({
      type: 'FieldValueNotSupported',
      field: 'roleRef.kind',
      message: `supported values: ${kinds.map((k) => `"${k}"`).join(', ')}`,
      value: ref.kind ?? '',
    });
  if (!ref.name)
    errs.push({ type: 'FieldValueRequired', field: 'roleRef.name', message: 'Required value' });
  const subjects = obj['subjects'];
  if (subjects !== undefined && subjects !== null) {
    if (!Array.isArray(subjects))
      return [
        ...errs,
        {
          type: 'FieldValueInvalid',
          field: 'subjects',
          message: 'must be a list',
          value: subjects,
        },
      ];
    subjects.forEach((s: { kind?: string; name?: string; namespace?: string }, i) => {
      const f = `subjects[${i}]`;
      if (!s.name)
        errs.push({ type: 'FieldValueRequired', field: `${f}.name`, message: 'Required value' });
      if (!['User', 'Group', 'ServiceAccount'].includes(s.kind ?? '')) {
        errs.push({
          type: 'FieldValueNotSupported',
          field: `${f}.kind`,
          message: 'supported values: "ServiceAccount", "User", "Group"',
          value: s.kind ?? '',
        });
      }
      if (s.kind === 'ServiceAccount' && !namespaced && !s.namespace)
        errs.push({
          type: 'FieldValueRequired',
          field: `${f}.namespace`,
          message: 'Required value',
        });
    });
  }
  return errs;
}

const base: Strategy = { ...defaultStrategy({ hasStatus: false }), nameRule: 'path-segment' };

/** Roles (namespaced) and ClusterRoles: their rules, on create and update alike. */
const rolesStrategy = (namespaced: boolean): Strategy => ({
  ...base,
  validate: (obj) => validateRules(obj, namespaced),
  validateUpdate: (obj) => validateRules(obj, namespaced),
});

/** RoleBindings (namespaced) and ClusterRoleBindings: subjects and a roleRef that never changes. */
const bindingsStrategy = (namespaced: boolean): Strategy => ({
  ...base,
  validate: (obj) => validateBinding(obj, namespaced),
  validateUpdate: (obj: ApiObject, old: ApiObject) => {
    const errs = validateBinding(obj, namespaced);
    if (!sameJson(obj['roleRef'], old['roleRef']))
      errs.push({
        type: 'FieldValueInvalid',
        field: 'roleRef',
        message: 'cannot change roleRef',
        value: obj['roleRef'],
      });
    return errs;
  },
});

export const roleStrategy = rolesStrategy(true);
export const clusterRoleStrategy = rolesStrategy(false);
export const roleBindingStrategy = bindingsStrategy(true);
export const clusterRoleBindingStrategy = bindingsStrategy(false);
