// Group names inside objects, translated between upstream's names and the ones served here for a
// client that speaks upstream's (services/gateway/src/groupalias/, @orch/apimachinery/schema
// upstreamGroupAliases): the object's apiVersion, the apiVersion of its owner references and
// managed fields, and the fields of each kind that name groups (RBAC references and rules, access
// review attributes, webhook and policy rules, typed references). Upstream has no such stage: its
// groups have one name; the paths are those of k8s.io/api's types.go fields holding a group.
import { canonicalGroup, mapApiVersionGroup, upstreamGroup } from '@orch/apimachinery/schema';

type Json = Record<string, unknown>;

/** The fields that hold a group (`.apiGroup`, `apiGroups[]`) or an apiVersion, per kind. */
export interface GroupFields {
  groups: readonly string[];
  apiVersions?: readonly string[];
}

const rule = (prefix: string): string[] => [`${prefix}.apiGroups[]`];
const webhookRules = ['webhooks[].rules[].apiGroups[]'];
const matchResources = (prefix: string): string[] => [
  `${prefix}.resourceRules[].apiGroups[]`,
  `${prefix}.excludeResourceRules[].apiGroups[]`,
];

/** Every kind's own group-naming fields; `metadata` fields are in {@link metadataApiVersions}. */
export const groupFieldsByKind: Readonly<Record<string, GroupFields>> = {
  Role: { groups: rule('rules[]') },
  ClusterRole: { groups: rule('rules[]') },
  RoleBinding: { groups: ['roleRef.apiGroup', 'subjects[].apiGroup'] },
  ClusterRoleBinding: { groups: ['roleRef.apiGroup', 'subjects[].apiGroup'] },
  SubjectAccessReview: { groups: ['spec.resourceAttributes.group'] },
  LocalSubjectAccessReview: { groups: ['spec.resourceAttributes.group'] },
  SelfSubjectAccessReview: { groups: ['spec.resourceAttributes.group'] },
  SelfSubjectRulesReview: { groups: rule('status.resourceRules[]') },
  MutatingWebhookConfiguration: { groups: webhookRules },
  ValidatingWebhookConfiguration: { groups: webhookRules },
  ValidatingAdmissionPolicy: {
    groups: matchResources('spec.matchConstraints'),
    apiVersions: ['spec.paramKind.apiVersion'],
  },
  ValidatingAdmissionPolicyBinding: { groups: matchResources('spec.matchResources') },
  Ingress: {
    groups: [
      'spec.defaultBackend.resource.apiGroup',
      'spec.rules[].http.paths[].backend.resource.apiGroup',
    ],
  },
  IngressClass: { groups: ['spec.parameters.apiGroup'] },
  PersistentVolumeClaim: {
    groups: ['spec.dataSource.apiGroup', 'spec.dataSourceRef.apiGroup'],
  },
  HorizontalPodAutoscaler: {
    groups: [],
    apiVersions: ['spec.scaleTargetRef.apiVersion'],
  },
};

/** apiVersion fields of every object's metadata. */
export const metadataApiVersions = [
  'metadata.ownerReferences[].apiVersion',
  'metadata.managedFields[].apiVersion',
];

/** Applies `f` to every string at `path` (`a.b[].c`, `[]` stepping into each array element). */
function mapAt(value: unknown, steps: readonly string[], f: (s: string) => string): unknown {
  if (steps.length === 0) return typeof value === 'string' ? f(value) : value;
  const [step, ...rest] = steps as [string, ...string[]];
  if (step === '[]') {
    return Array.isArray(value) ? value.map((v) => mapAt(v, rest, f)) : value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const obj = value as Json;
  if (!(step in obj)) return value;
  const next = mapAt(obj[step], rest, f);
  return next === obj[step] ? value : { ...obj, [step]: next };
}

/** `a.b[].c` as steps `a`, `b`, `[]`, `c`. */
function stepsOf(path: string): string[] {
  return path.split('.').flatMap((p) => (p.endsWith('[]') ? [p.slice(0, -2), '[]'] : [p]));
}

function mapFields(obj: Json, kind: string, map: (group: string) => string): Json {
  const fields = groupFieldsByKind[kind];
  const apiVersion = (v: string) => mapApiVersionGroup(v, map);
  let out: unknown = obj;
  if (typeof obj['apiVersion'] === 'string')
    out = { ...obj, apiVersion: apiVersion(obj['apiVersion']) };
  for (const p of [...metadataApiVersions, ...(fields?.apiVersions ?? [])])
    out = mapAt(out, stepsOf(p), apiVersion);
  for (const p of fields?.groups ?? []) out = mapAt(out, stepsOf(p), map);
  return out as Json;
}

/**
 * The object (a list's items and a watch event's object too) with every group name mapped by
 * `map`; the input is left as it is. Values that are not objects are returned unchanged.
 * `kind` names the kind of an object that does not say it (a patch).
 */
export function mapGroups<T>(value: T, map: (group: string) => string, kindHint = ''): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const obj = value as Json;
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : kindHint;
  if (kind === 'WatchEvent' || (kind === '' && 'type' in obj && 'object' in obj)) {
    return { ...obj, object: mapGroups(obj['object'], map) } as T;
  }
  let out = mapFields(obj, kind, map);
  if (Array.isArray(out['items'])) {
    const itemKind = kind.endsWith('List') ? kind.slice(0, -'List'.length) : '';
    out = {
      ...out,
      items: (out['items'] as unknown[]).map((item) => {
        if (typeof item !== 'object' || item === null) return item;
        const i = item as Json;
        return mapFields(i, typeof i['kind'] === 'string' ? i['kind'] : itemKind, map);
      }),
    };
  }
  if (kind === 'Status') out = mapStatusGroups(out, map);
  return out as T;
}

/** A dotted name: `roles.rbac.authorization.orch.io`, `Role.rbac.authorization.orch.io`, a group. */
const dottedName = /[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

/**
 * Group names inside a text mapped by `map`: in each dotted name, the longest tail (at a dot) that
 * `map` changes, so that `roles.rbac.authorization.orch.io` (a resource and its group, as
 * upstream's GroupResource.String() writes it) and `"rbac.authorization.orch.io"` both move.
 */
export function mapGroupsInText(text: string, map: (group: string) => string): string {
  return text.replace(dottedName, (name) => {
    for (let at = 0; at !== -1; at = name.indexOf('.', at + 1)) {
      const start = at === 0 ? 0 : at + 1;
      const tail = name.slice(start);
      const mapped = map(tail);
      if (mapped !== tail) return name.slice(0, start) + mapped;
    }
    return name;
  });
}

/**
 * A Status in the other group names: `details.group`, and the group inside its message and its
 * causes' messages, which upstream builds from the qualified resource or kind
 * (`roles.rbac.authorization.k8s.io "r" not found`).
 */
function mapStatusGroups(status: Json, map: (group: string) => string): Json {
  let out = status;
  if (typeof out['message'] === 'string')
    out = { ...out, message: mapGroupsInText(out['message'], map) };
  const details = out['details'] as Json | undefined;
  if (typeof details !== 'object' || details === null) return out;
  const mapped: Json = { ...details };
  if (typeof details['group'] === 'string') mapped['group'] = map(details['group']);
  if (Array.isArray(details['causes']))
    mapped['causes'] = (details['causes'] as unknown[]).map((c) =>
      typeof c === 'object' && c !== null && typeof (c as Json)['message'] === 'string'
        ? { ...(c as Json), message: mapGroupsInText((c as Json)['message'] as string, map) }
        : c
    );
  return { ...out, details: mapped };
}

/** Upstream's group names → the ones served here (a request body on its way in). */
export const toServedGroups = <T>(value: T, kindHint = ''): T =>
  mapGroups(value, canonicalGroup, kindHint);

/** The names served here → upstream's (an answer to a client that spoke upstream's names). */
export const toUpstreamGroups = <T>(value: T): T => mapGroups(value, upstreamGroup);
