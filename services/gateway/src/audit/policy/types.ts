// The audit policy's types (upstream's audit.k8s.io/v1 Policy, here in group audit.orch.io):
// which requests are recorded, at which level, and which stages are left out.

export const auditGroupVersion = 'audit.orch.io/v1';

/** How much of a request an event carries, from nothing to both bodies. */
export type Level = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export const levels: readonly Level[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

/** The stages of a request at which an event is written. */
export type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';
export const stages: readonly Stage[] = [
  'RequestReceived',
  'ResponseStarted',
  'ResponseComplete',
  'Panic',
];

/** `level` ordered: at least Request means the request body, RequestResponse both bodies. */
export const levelAtLeast = (level: Level, min: Level): boolean =>
  levels.indexOf(level) >= levels.indexOf(min);

export interface GroupResources {
  /** The API group; "" is the core group. */
  group?: string;
  /** Resources, `resource/subresource`, `*`, `*\/subresource` or `resource/*`; none is all. */
  resources?: string[];
  /** Object names; none is all. */
  resourceNames?: string[];
}

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  /** Namespaces; "" matches cluster-scoped requests. */
  namespaces?: string[];
  /** Paths of non-resource requests, a trailing `*` as a prefix match. */
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  /** Unset: the policy's omitManagedFields. */
  omitManagedFields?: boolean;
}

export interface Policy {
  apiVersion: string;
  kind: 'Policy';
  metadata?: { name?: string };
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** What the checker decides for one request (upstream's RequestAuditConfig). */
export interface RequestAuditConfig {
  level: Level;
  omitStages: readonly Stage[];
  omitManagedFields: boolean;
}

/** The attributes a rule matches (a subset of the authorizer's). */
export interface AuditAttributes {
  user?: { name: string; groups: readonly string[] } | undefined;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  namespace?: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}
