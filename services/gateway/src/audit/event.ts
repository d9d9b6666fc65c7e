// The audit Event (upstream's audit.k8s.io/v1 Event, here audit.orch.io/v1), its fields in
// upstream's order, and the metrics of the audit pipeline.
import type { Registry } from 'prom-client';
import { Counter } from 'prom-client';
import { auditGroupVersion } from './policy/types.js';
import type { Level, Stage } from './policy/types.js';

export interface AuditUser {
  username: string;
  uid?: string;
  groups?: readonly string[];
  extra?: Record<string, readonly string[]>;
}

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  apiGroup?: string;
  apiVersion?: string;
  subresource?: string;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: string;
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs: string[];
  userAgent: string;
  objectRef?: ObjectReference;
  responseStatus?: { code: number; status?: string; message?: string };
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

export const eventKind = { kind: 'Event', apiVersion: auditGroupVersion } as const;

/** The fields of an event every stage shares; the stage, its time and the status vary. */
export type EventBase = Omit<AuditEvent, 'stage' | 'stageTimestamp'>;

/** A copy of an object without `metadata.managedFields` (omitManagedFields), lists' items too. */
export function withoutManagedFields(obj: unknown): unknown {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
  const o = obj as Record<string, unknown>;
  let out = o;
  const meta = o['metadata'] as Record<string, unknown> | undefined;
  if (meta && typeof meta === 'object' && 'managedFields' in meta) {
    const { managedFields: _omitted, ...rest } = meta;
    out = { ...o, metadata: rest };
  }
  if (Array.isArray(o['items'])) out = { ...out, items: o['items'].map(withoutManagedFields) };
  return out;
}

/** The audit metrics, named as upstream's (audit/metrics.go). */
export class AuditMetrics {
  readonly events: Counter;
  readonly errors: Counter<'plugin'>;
  readonly levels: Counter<'level'>;
  constructor(registry: Registry) {
    this.events = new Counter({
      name: 'apiserver_audit_event_total',
      help: 'Counter of audit events generated and sent to the audit backend.',
      registers: [registry],
    });
    this.errors = new Counter({
      name: 'apiserver_audit_error_total',
      help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
      labelNames: ['plugin'],
      registers: [registry],
    });
    this.levels = new Counter({
      name: 'apiserver_audit_level_total',
      help: 'Counter of policy levels for audit events (1 per request).',
      labelNames: ['level'],
      registers: [registry],
    });
  }
}
