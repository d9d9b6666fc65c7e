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
  if (kind === 'Status' && typeof (out['details'] as Json | undefined)?.['group'] === 'string') {
    const details = out['details'] as Json;
    out = { ...out, details: { ...details, group: map(details['group'] as string) } };
  }
  return out as T;
}

/** Upstream's group names → the ones served here (a request body on its way in). */
export const toServedGroups = <T>(value: T, kindHint = ''): T =>
  mapGroups(value, canonicalGroup, kindHint);

/** The names served here → upstream's (an answer to a client that spoke upstream's names). */
export const toUpstreamGroups = <T>(value: T): T => mapGroups(value, upstreamGroup);
