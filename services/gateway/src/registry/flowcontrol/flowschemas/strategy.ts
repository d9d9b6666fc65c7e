// FlowSchemas (k8s pkg/registry/flowcontrol/flowschema/strategy.go, pkg/apis/flowcontrol/
// validation ValidateFlowSchema): stored and validated, not enforced. Matching precedence 1 to
// 10000 (1 only for `exempt`), a referenced priority level, distinguisher ByUser or
// ByNamespace, rules with subjects and resource or non-resource rules. Status through the
// status subresource.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isDNS1123Label, isDNS1123Subdomain } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { isObject, list, obj, str } from '../../unstructured.js';
import type { Json } from '../../unstructured.js';

export const flowSchemaMaxMatchingPrecedence = 10000;
const distinguisherMethods = ['ByNamespace', 'ByUser'];
const subjectKinds = ['Group', 'ServiceAccount', 'User'];
const supportedVerbs = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'proxy',
  'update',
  'watch',
];

/** A list that must not be empty, and whose '*' stands alone. */
function wildcardList(
  values: unknown,
  path: FieldPath,
  required: string,
  what: string
): FieldError[] {
  const all = list(values).map(String);
  if (all.length === 0) return [fieldRequired(path, required)];
  if (all.includes('*') && all.length > 1)
    return [fieldInvalid(path, all, `if '*' is present, must not specify other ${what}`)];
  return [];
}

function validateSubject(s: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const kind = str(s['kind']);
  const forbid = (field: string, msg: string): void => {
    if (isObject(s[field])) errs.push(fieldForbidden(path.child(field), msg));
  };
  switch (kind) {
    case 'ServiceAccount': {
      const sa = s['serviceAccount'];
      if (!isObject(sa))
        errs.push(
          fieldRequired(
            path.child('serviceAccount'),
            "serviceAccount is required when subject kind is 'ServiceAccount'"
          )
        );
      else {
        if (!str(sa['name']))
          errs.push(fieldRequired(path.child('serviceAccount', 'name'), 'name is required'));
        if (!str(sa['namespace']))
          errs.push(
            fieldRequired(
              path.child('serviceAccount', 'namespace'),
              'must specify namespace for service account'
            )
          );
      }
      forbid('user', "user is forbidden when subject kind is not 'User'");
      forbid('group', "group is forbidden when subject kind is not 'Group'");
      break;
    }
    case 'User':
      if (!isObject(s['user']))
        errs.push(
          fieldRequired(path.child('user'), "user is required when subject kind is 'User'")
        );
      else if (!str(s['user']['name']))
        errs.push(fieldRequired(path.child('user', 'name'), 'username is required'));
      forbid(
        'serviceAccount',
        "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"
      );
      forbid('group', "group is forbidden when subject kind is not 'Group'");
      break;
    case 'Group':
      if (!isObject(s['group']))
        errs.push(
          fieldRequired(path.child('group'), "group is required when subject kind is 'Group'")
        );
      else if (!str(s['group']['name']))
        errs.push(fieldRequired(path.child('group', 'name'), 'name is required'));
      forbid(
        'serviceAccount',
        "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"
      );
      forbid('user', "user is forbidden when subject kind is not 'User'");
      break;
    default:
      errs.push(fieldNotSupported(path.child('kind'), kind, subjectKinds));
  }
  return errs;
}

function validateVerbs(verbs: unknown, path: FieldPath): FieldError[] {
  const errs = wildcardList(verbs, path, 'verbs must contain at least one value', 'verbs');
  const all = list(verbs).map(String);
  if (errs.length === 0 && !all.includes('*') && !all.every((v) => supportedVerbs.includes(v)))
    errs.push(fieldNotSupported(path, all, supportedVerbs));
  return errs;
}

function validateResourceRule(r: Json, path: FieldPath): FieldError[] {
  const errs = [
    ...validateVerbs(r['verbs'], path.child('verbs')),
    ...wildcardList(
      r['apiGroups'],
      path.child('apiGroups'),
      'resource rules must supply at least one api group',
      'api groups'
    ),
    ...wildcardList(
      r['resources'],
      path.child('resources'),
      'resource rules must supply at least one resource',
      'resources'
    ),
  ];
  const namespaces = list(r['namespaces']).map(String);
  if (namespaces.length === 0 && r['clusterScope'] !== true)
    errs.push(
      fieldRequired(
        path.child('namespaces'),
        'resource rules that are not cluster scoped must supply at least one namespace'
      )
    );
  else if (namespaces.includes('*')) {
    if (namespaces.length > 1)
      errs.push(
        fieldInvalid(
          path.child('namespaces'),
          namespaces,
          "if '*' is present, must not specify other namespaces"
        )
      );
  } else
    namespaces.forEach((ns, i) => {
      for (const m of isDNS1123Label(ns))
        errs.push(
          fieldInvalid(
            path.child('namespaces').index(i),
            ns,
            `each member of this list must be '*' or a DNS-1123 label; ${m}`
          )
        );
    });
  return errs;
}

/** ValidateFlowSchema. */
export function validateFlowSchema(fs: ApiObject): FieldError[] {
  const spec = obj(fs['spec']);
  const p = newPath('spec');
  const errs: FieldError[] = [];
  const mp = spec['matchingPrecedence'];
  const precedence = typeof mp === 'number' ? mp : 0;
  if (precedence <= 0)
    errs.push(fieldInvalid(p.child('matchingPrecedence'), precedence, 'must be a positive value'));
  if (precedence > flowSchemaMaxMatchingPrecedence)
    errs.push(
      fieldInvalid(
        p.child('matchingPrecedence'),
        precedence,
        `must not be greater than ${flowSchemaMaxMatchingPrecedence}`
      )
    );
  if (precedence === 1 && fs.metadata.name !== 'exempt')
    errs.push(
      fieldInvalid(
        p.child('matchingPrecedence'),
        precedence,
        "only the schema named 'exempt' may have matching precedence 1"
      )
    );
  const dm = spec['distinguisherMethod'];
  if (isObject(dm) && !distinguisherMethods.includes(str(dm['type'])))
    errs.push(
      fieldNotSupported(p.child('distinguisherMethod', 'type'), dm['type'], distinguisherMethods)
    );
  const pl = str(obj(spec['priorityLevelConfiguration'])['name']);
  const plp = p.child('priorityLevelConfiguration', 'name');
  if (!pl) errs.push(fieldRequired(plp, 'must reference a priority level'));
  else for (const m of isDNS1123Subdomain(pl)) errs.push(fieldInvalid(plp, pl, m));
  list(spec['rules']).forEach((x, i) => {
    const rule = obj(x);
    const rp = p.child('rules').index(i);
    const subjects = list(rule['subjects']);
    if (subjects.length === 0)
      errs.push(fieldRequired(rp.child('subjects'), 'subjects must contain at least one value'));
    subjects.forEach((s, j) =>
      errs.push(...validateSubject(obj(s), rp.child('subjects').index(j)))
    );
    const resourceRules = list(rule['resourceRules']);
    const nonResourceRules = list(rule['nonResourceRules']);
    if (resourceRules.length === 0 && nonResourceRules.length === 0)
      errs.push(
        fieldRequired(rp, 'at least one of resourceRules and nonResourceRules has to be non-empty')
      );
    resourceRules.forEach((r, j) =>
      errs.push(...validateResourceRule(obj(r), rp.child('resourceRules').index(j)))
    );
    nonResourceRules.forEach((r, j) => {
      const nr = obj(r);
      const np = rp.child('nonResourceRules').index(j);
      errs.push(...validateVerbs(nr['verbs'], np.child('verbs')));
      errs.push(
        ...wildcardList(
          nr['nonResourceURLs'],
          np.child('nonResourceURLs'),
          'nonResourceURLs must contain at least one value',
          'nonResourceURLs'
        )
      );
    });
  });
  return errs;
}

export const flowSchemaStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validate: validateFlowSchema,
  validateUpdate: validateFlowSchema,
};
