// The one mapping between the admission service's proto messages (orch.admission.v1) and the
// TypeScript shapes both sides use (the service's AdmissionRequest, the gateway's client): the
// gateway sends with admitCallToProto and reads with admitResultFromProto, the service the
// other way round. Objects and options travel as JSON bytes.
import type {
  AdmitRequest,
  AdmitRequest__Output,
  AdmitResponse,
  AdmitResponse__Output,
  PodSecurityScopeMessage,
  PodSecurityScopeMessage__Output,
} from '@orch/proto';
import type { UserInfo } from '../auth/index.js';
import { isStatus } from '../errors/index.js';
import type { Status, StatusDetails } from '../errors/index.js';
import type { AdmissionOperation, PodSecurityScope } from '../admission/index.js';
import type { ApiObject } from '../meta/index.js';
import type { GroupVersionKind, GroupVersionResource } from '../schema/index.js';

export type { AdmissionOperation };
export type AdmissionPhaseName = 'mutating' | 'validating';

/** One write's attributes (the admission service's AdmissionRequest). */
export interface AdmissionCallRequest {
  operation: AdmissionOperation;
  /** The kind of the object written (for a subresource, the subresource's kind). */
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  /** '' for the object itself. */
  subResource: string;
  /** '' for cluster-scoped resources. */
  namespace: string;
  name: string;
  userInfo: UserInfo;
  /** The object to be written; undefined for DELETE. A mutating plugin replaces it. */
  object: ApiObject | undefined;
  /** The stored object; undefined for CREATE and CONNECT. */
  oldObject: ApiObject | undefined;
  /** CreateOptions, UpdateOptions or DeleteOptions (meta.orch.io/v1); undefined for CONNECT. */
  options: Record<string, unknown> | undefined;
  dryRun: boolean;
}

/** One call: a phase, the plugins to run in order, the attributes. */
export interface AdmitCall {
  phase: AdmissionPhaseName;
  plugins: string[];
  request: AdmissionCallRequest;
}

/** The answer: allowed, or denied with a Status; the object only when a plugin changed it. */
export interface AdmitResult {
  allowed: boolean;
  status: Status | undefined;
  object: ApiObject | undefined;
  warnings: string[];
  auditAnnotations: Record<string, string>;
  /**
   * Mutating phase: no plugin of the call can act on this request in the validating phase (by
   * resource and operation), so that call may be left out.
   */
  validatingPhaseIdle?: boolean;
}

const operations = new Set<string>(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

const json = (v: unknown): Buffer =>
  v === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(v));

function parseJson<T>(b: Buffer | undefined, field: string): T | undefined {
  if (!b || b.length === 0) return undefined;
  try {
    return JSON.parse(b.toString('utf8')) as T;
  } catch (err) {
    throw new AdmissionMappingError(`${field} is not JSON: ${(err as Error).message}`);
  }
}

/** A message that cannot be mapped (bad JSON, unknown phase or operation). */
export class AdmissionMappingError extends Error {
  override readonly name = 'AdmissionMappingError';
}

export function admitCallToProto(c: AdmitCall): AdmitRequest {
  const r = c.request;
  const extra = Object.fromEntries(
    Object.entries(r.userInfo.extra).map(([k, v]) => [k, { values: v }])
  );
  return {
    phase: c.phase === 'mutating' ? 'PHASE_MUTATING' : 'PHASE_VALIDATING',
    plugins: c.plugins,
    operation: r.operation,
    kind_group: r.kind.group,
    kind_version: r.kind.version,
    kind: r.kind.kind,
    resource_group: r.resource.group,
    resource_version: r.resource.version,
    resource: r.resource.resource,
    sub_resource: r.subResource,
    namespace: r.namespace,
    name: r.name,
    user_info: {
      username: r.userInfo.name,
      uid: r.userInfo.uid,
      groups: r.userInfo.groups,
      extra,
    },
    object: json(r.object),
    old_object: json(r.oldObject),
    options: json(r.options),
    dry_run: r.dryRun,
  };
}

/** Throws AdmissionMappingError on a message that names no phase or operation or is not JSON. */
export function admitCallFromProto(m: AdmitRequest__Output): AdmitCall {
  const phase =
    m.phase === 'PHASE_MUTATING'
      ? 'mutating'
      : m.phase === 'PHASE_VALIDATING'
        ? 'validating'
        : undefined;
  if (!phase) throw new AdmissionMappingError('phase must be PHASE_MUTATING or PHASE_VALIDATING');
  if (!operations.has(m.operation)) {
    throw new AdmissionMappingError(
      `operation must be CREATE, UPDATE, DELETE or CONNECT, not ${JSON.stringify(m.operation)}`
    );
  }
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(m.user_info?.extra ?? {})) extra[k] = v.values ?? [];
  return {
    phase,
    plugins: m.plugins,
    request: {
      operation: m.operation as AdmissionOperation,
      kind: { group: m.kind_group, version: m.kind_version, kind: m.kind },
      resource: { group: m.resource_group, version: m.resource_version, resource: m.resource },
      subResource: m.sub_resource,
      namespace: m.namespace,
      name: m.name,
      userInfo: {
        name: m.user_info?.username ?? '',
        uid: m.user_info?.uid ?? '',
        groups: m.user_info?.groups ?? [],
        extra,
      },
      object: parseJson<ApiObject>(m.object, 'object'),
      oldObject: parseJson<ApiObject>(m.old_object, 'old_object'),
      options: parseJson<Record<string, unknown>>(m.options, 'options'),
      dryRun: m.dry_run,
    },
  };
}

export function admitResultToProto(r: AdmitResult): AdmitResponse {
  const out: AdmitResponse = {
    allowed: r.allowed,
    object: json(r.object),
    warnings: r.warnings,
    audit_annotations: r.auditAnnotations,
    validating_phase_idle: r.validatingPhaseIdle ?? false,
  };
  if (r.status) {
    const { causes, ...details } = r.status.details ?? {};
    out.status = {
      code: r.status.code,
      reason: r.status.reason ?? '',
      message: r.status.message ?? '',
      causes: (causes ?? []).map((c) => ({
        reason: c.reason ?? '',
        message: c.message ?? '',
        field: c.field ?? '',
      })),
      details: r.status.details ? json(details) : Buffer.alloc(0),
    };
  }
  return out;
}

export function admitResultFromProto(m: AdmitResponse__Output): AdmitResult {
  let status: Status | undefined;
  if (m.status) {
    const details: StatusDetails =
      parseJson<StatusDetails>(m.status.details, 'status.details') ?? {};
    if (m.status.causes.length > 0) {
      details.causes = m.status.causes.map((c) => ({
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.message ? { message: c.message } : {}),
        ...(c.field ? { field: c.field } : {}),
      }));
    }
    const candidate: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: m.status.message,
      reason: m.status.reason as Status['reason'],
      code: m.status.code,
      ...(Object.keys(details).length > 0 ? { details } : {}),
    };
    if (isStatus(candidate)) status = candidate;
  }
  return {
    allowed: m.allowed,
    status,
    object: parseJson<ApiObject>(m.object, 'object'),
    warnings: m.warnings,
    auditAnnotations: m.audit_annotations,
    ...(m.validating_phase_idle ? { validatingPhaseIdle: true } : {}),
  };
}

/** ListPlugins' PodSecurity scope (null: the service does not say). */
export function podSecurityScopeToProto(
  s: PodSecurityScope | undefined
): PodSecurityScopeMessage | null {
  if (!s) return null;
  return {
    default_audit_level: s.defaultAuditLevel,
    default_warn_level: s.defaultWarnLevel,
    exempt_namespaces: [...s.exemptNamespaces],
    exempt_usernames: [...s.exemptUsernames],
  };
}

export function podSecurityScopeFromProto(
  m: PodSecurityScopeMessage__Output | null | undefined
): PodSecurityScope | undefined {
  if (!m) return undefined;
  return {
    defaultAuditLevel: m.default_audit_level,
    defaultWarnLevel: m.default_warn_level,
    exemptNamespaces: m.exempt_namespaces,
    exemptUsernames: m.exempt_usernames,
  };
}
