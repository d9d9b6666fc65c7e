// Which FlowSchema a request matches (k8s pkg/util/flowcontrol/rule.go): a schema matches when one
// of its rules matches both a subject (User, Group, ServiceAccount) and a resource or
// non-resource rule, with upstream's wildcards.
import { createHash } from 'node:crypto';
import type { UserInfo } from '@orch/apimachinery/auth';
import type {
  FlowSchema,
  NonResourcePolicyRule,
  PolicyRulesWithSubjects,
  ResourcePolicyRule,
  Subject,
} from '@orch/api/flowcontrol/v1';
import type { RequestInfo } from '../request/request-info.js';

/** What classification reads of a request (upstream's RequestDigest). */
export interface RequestDigest {
  info: RequestInfo;
  user: UserInfo;
}

const sep = Buffer.from([0]);
const serviceAccountPrefix = 'system:serviceaccount:';

/** A list that is exactly the wildcard matches everything; otherwise x must be listed. */
const contains = (x: string, list: readonly string[] | undefined, wildcard: string): boolean =>
  (list?.length === 1 && list[0] === wildcard) || (list ?? []).includes(x);

function matchesSubject(user: UserInfo, s: Subject): boolean {
  switch (s.kind) {
    case 'User':
      return !!s.user && (s.user.name === '*' || s.user.name === user.name);
    case 'Group':
      return !!s.group && (s.group.name === '*' || user.groups.includes(s.group.name));
    case 'ServiceAccount': {
      const sa = s.serviceAccount;
      if (!sa) return false;
      if (sa.name === '*') return user.name.startsWith(`${serviceAccountPrefix}${sa.namespace}:`);
      return user.name === `${serviceAccountPrefix}${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

function matchesResourceRule(info: RequestInfo, r: ResourcePolicyRule): boolean {
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  if (!contains(info.verb, r.verbs, '*')) return false;
  if (!contains(resource, r.resources, '*')) return false;
  if (!contains(info.apiGroup, r.apiGroups, '*')) return false;
  if (!info.namespace) return !!r.clusterScope;
  return contains(info.namespace, r.namespaces, '*');
}

/** A rule URL matches itself, and as a prefix (a trailing '*' dropped) the paths below it. */
function matchesNonResourceURL(urls: readonly string[], path: string): boolean {
  return urls.some((rule) => {
    if (rule === '*' || rule === path) return true;
    let prefix = rule.endsWith('*') ? rule.slice(0, -1) : rule;
    if (!prefix.endsWith('/')) prefix += '/';
    return path.startsWith(prefix);
  });
}

const matchesNonResourceRule = (info: RequestInfo, r: NonResourcePolicyRule): boolean =>
  contains(info.verb, r.verbs, '*') && matchesNonResourceURL(r.nonResourceURLs, info.path);

function matchesPolicyRule(d: RequestDigest, rule: PolicyRulesWithSubjects): boolean {
  if (!rule.subjects.some((s) => matchesSubject(d.user, s))) return false;
  return d.info.isResourceRequest
    ? (rule.resourceRules ?? []).some((r) => matchesResourceRule(d.info, r))
    : (rule.nonResourceRules ?? []).some((r) => matchesNonResourceRule(d.info, r));
}

export const matchesFlowSchema = (d: RequestDigest, fs: FlowSchema): boolean =>
  (fs.spec.rules ?? []).some((rule) => matchesPolicyRule(d, rule));

/**
 * The order classification tries schemas in: matching precedence ascending, then name (upstream's
 * apf_controller sort), so the first match wins.
 */
export const byPrecedence = (a: FlowSchema, b: FlowSchema): number =>
  (a.spec.matchingPrecedence ?? 1000) - (b.spec.matchingPrecedence ?? 1000) ||
  (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');

/** The flow distinguisher of a request under a schema: the user name or the namespace, or none. */
export function flowDistinguisher(d: RequestDigest, fs: FlowSchema): string {
  switch (fs.spec.distinguisherMethod?.type) {
    case 'ByUser':
      return d.user.name;
    case 'ByNamespace':
      return d.info.namespace;
    default:
      return '';
  }
}

/**
 * The flow's hash (upstream's hashFlowID): SHA-256 of the schema name, a zero byte and the
 * distinguisher, its first 8 bytes little-endian: the entropy shuffle sharding deals.
 */
export function hashFlowID(schema: string, distinguisher: string): bigint {
  const key = `${schema}\u0000${distinguisher}`;
  const known = flowHashes.get(key);
  if (known !== undefined) return known;
  const sum = createHash('sha256').update(schema).update(sep).update(distinguisher).digest();
  const hash = sum.readBigUInt64LE(0);
  // Flows recur (a user, a namespace): remembered, forgotten all at once past the bound.
  if (flowHashes.size >= maxRememberedFlows) flowHashes.clear();
  flowHashes.set(key, hash);
  return hash;
}

const maxRememberedFlows = 4096;
const flowHashes = new Map<string, bigint>();
