// Objects → Table: the columns a kind declares in proto/ (table_columns), each filled from a
// JSON path or a named printer, after the Name column; kinds without columns get Name and
// Created At. Cells follow kubectl's printers (k8s pkg/printers/internalversion).
import type { MessageSchema, TableColumnSpec } from './schema-model.js';
import { asPartialObjectMetadata } from './partial-object-metadata.js';

type Json = Record<string, unknown>;

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  object?: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const nameColumn: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated.',
  priority: 0,
};

const createdAtColumn: TableColumnDefinition = {
  name: 'Created At',
  type: 'date',
  format: '',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.',
  priority: 0,
};

/** The column definitions of a kind (of its message), Name first. */
export function tableColumnDefinitions(
  message: MessageSchema | undefined
): TableColumnDefinition[] {
  const cols = message?.tableColumns;
  if (!cols || cols.length === 0) return [nameColumn, createdAtColumn];
  return [
    nameColumn,
    ...cols.map(({ name, type, format, description, priority }) => ({
      name,
      type,
      format,
      description,
      priority,
    })),
  ];
}

export interface TableOptions {
  /** `meta.orch.io/v1`, or the group the client asked for. */
  apiVersion: string;
  includeObject: IncludeObject;
  listMeta?: Table['metadata'];
  /** Milliseconds since the epoch, for ages (tests pass a fixed one). */
  now?: number;
}

/** Converts objects of one kind into a Table. */
export function toTable(
  message: MessageSchema | undefined,
  objects: Json[],
  opts: TableOptions
): Table {
  const now = opts.now ?? Date.now();
  const custom =
    message?.tableColumns && message.tableColumns.length > 0 ? message.tableColumns : undefined;
  const rows = objects.map((obj) => {
    const meta = (obj['metadata'] ?? {}) as Json;
    const cells: unknown[] = [meta['name'] ?? ''];
    if (!custom) cells.push(meta['creationTimestamp'] ?? null);
    else for (const col of custom) cells.push(cell(col, obj, now));
    const row: TableRow = { cells };
    if (opts.includeObject === 'Object') row.object = obj;
    if (opts.includeObject === 'Metadata') {
      row.object = asPartialObjectMetadata(obj, opts.apiVersion);
    }
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: opts.apiVersion,
    metadata: opts.listMeta ?? {},
    columnDefinitions: tableColumnDefinitions(message),
    rows,
  };
}

function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.').filter(Boolean)) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Json)[part];
  }
  return cur;
}

function cell(col: TableColumnSpec, obj: Json, now: number): unknown {
  if (col.source.startsWith('@')) {
    const printer = printers[col.source.slice(1)];
    return printer ? printer(obj, now) : '<unknown>';
  }
  const v = at(obj, col.source);
  if (col.type === 'integer' || col.type === 'number') return typeof v === 'number' ? v : 0;
  if (v === undefined || v === null || v === '') return col.priority > 0 ? '<none>' : '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** kubectl's short human durations: 45s, 5m30s, 3h, 2d5h, 1y (k8s apimachinery duration.HumanDuration). */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8)
    return hours % 24 === 0
      ? `${Math.floor(hours / 24)}d`
      : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return days === 0
      ? `${Math.floor(hours / 24 / 365)}y`
      : `${Math.floor(hours / 24 / 365)}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

function since(ts: unknown, now: number): string {
  if (typeof ts !== 'string' || ts === '') return '<unknown>';
  const t = Date.parse(ts);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function formatSelector(sel: unknown): string {
  if (typeof sel !== 'object' || sel === null) return '<none>';
  const s = sel as Json;
  const parts = Object.entries((s['matchLabels'] ?? {}) as Record<string, string>).map(
    ([k, v]) => `${k}=${v}`
  );
  for (const e of arr(s['matchExpressions'])) {
    const values = arr(e['values']).map(String).join(',');
    const op = str(e['operator']);
    if (op === 'In') parts.push(`${str(e['key'])} in (${values})`);
    else if (op === 'NotIn') parts.push(`${str(e['key'])} notin (${values})`);
    else if (op === 'Exists') parts.push(str(e['key']));
    else if (op === 'DoesNotExist') parts.push(`!${str(e['key'])}`);
  }
  return parts.length > 0 ? parts.join(',') : '<none>';
}

function podStatus(pod: Json): string {
  const status = (pod['status'] ?? {}) as Json;
  let reason = str(status['reason']) || str(status['phase']) || 'Pending';
  const inits = arr(status['initContainerStatuses']);
  const specInits = arr(at(pod, 'spec.initContainers'));
  let initializing = false;
  inits.forEach((c, i) => {
    const term = at(c, 'state.terminated') as Json | undefined;
    const waiting = at(c, 'state.waiting') as Json | undefined;
    if (term && num(term['exitCode']) === 0) return;
    if (initializing) return;
    initializing = true;
    if (term)
      reason = str(term['reason'])
        ? `Init:${str(term['reason'])}`
        : `Init:ExitCode:${num(term['exitCode'])}`;
    else if (waiting && str(waiting['reason']) && str(waiting['reason']) !== 'PodInitializing')
      reason = `Init:${str(waiting['reason'])}`;
    else reason = `Init:${i}/${specInits.length}`;
  });
  if (!initializing) {
    let hasRunning = false;
    for (const c of [...arr(status['containerStatuses'])].reverse()) {
      const waiting = at(c, 'state.waiting') as Json | undefined;
      const term = at(c, 'state.terminated') as Json | undefined;
      if (waiting && str(waiting['reason'])) reason = str(waiting['reason']);
      else if (term && str(term['reason'])) reason = str(term['reason']);
      else if (term)
        reason =
          num(term['signal']) !== 0
            ? `Signal:${num(term['signal'])}`
            : `ExitCode:${num(term['exitCode'])}`;
      else if (at(c, 'state.running') && c['ready'] === true) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) reason = 'Running';
  }
  if (at(pod, 'metadata.deletionTimestamp'))
    reason = status['reason'] === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

const printers: Record<string, (obj: Json, now: number) => unknown> = {
  age: (o, now) => since(at(o, 'metadata.creationTimestamp'), now),
  // certificatesigningrequests (upstream printCertificateSigningRequest, extractCSRStatus).
  csrSignerName: (o) => str(at(o, 'spec.signerName')) || '<none>',
  csrRequestedDuration: (o) => {
    const s = at(o, 'spec.expirationSeconds');
    return typeof s === 'number' ? humanDuration(s * 1000) : '<none>';
  },
  csrCondition: (o) => {
    const types = new Set(arr(at(o, 'status.conditions')).map((c) => str(c['type'])));
    let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
    if (types.has('Failed')) status += ',Failed';
    if (str(at(o, 'status.certificate'))) status += ',Issued';
    return status;
  },
  dataCount: (o) =>
    Object.keys((o['data'] ?? {}) as Json).length +
    Object.keys((o['binaryData'] ?? {}) as Json).length,
  secretCount: (o) => arr(o['secrets']).length,
  podReady: (o) => {
    const total = arr(at(o, 'spec.containers')).length;
    const ready = arr(at(o, 'status.containerStatuses')).filter((c) => c['ready'] === true).length;
    return `${ready}/${total}`;
  },
  podStatus: (o) => podStatus(o),
  podRestarts: (o, now) => {
    let restarts = 0;
    let last = 0;
    for (const c of arr(at(o, 'status.containerStatuses'))) {
      restarts += num(c['restartCount']);
      const finished = Date.parse(str(at(c, 'lastState.terminated.finishedAt')));
      if (!Number.isNaN(finished) && finished > last) last = finished;
    }
    return last > 0 && restarts > 0
      ? `${restarts} (${humanDuration(now - last)} ago)`
      : String(restarts);
  },
  podNominatedNode: (o) => str(at(o, 'status.nominatedNodeName')) || '<none>',
  podReadinessGates: (o) => {
    const gates = arr(at(o, 'spec.readinessGates'));
    if (gates.length === 0) return '<none>';
    const conditions = arr(at(o, 'status.conditions'));
    const ok = gates.filter((g) =>
      conditions.some((c) => c['type'] === g['conditionType'] && c['status'] === 'True')
    ).length;
    return `${ok}/${gates.length}`;
  },
  serviceExternalIP: (o) => {
    const type = str(at(o, 'spec.type')) || 'ClusterIP';
    const external = arr(at(o, 'spec.externalIPs')).map(String);
    if (type === 'ExternalName') return str(at(o, 'spec.externalName')) || '<none>';
    if (type === 'LoadBalancer') {
      const ingress = arr(at(o, 'status.loadBalancer.ingress')).map(
        (i) => str(i['ip']) || str(i['hostname'])
      );
      const all = [...ingress, ...external].filter(Boolean);
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    return external.length > 0 ? external.join(',') : '<none>';
  },
  servicePorts: (o) => {
    const ports = arr(at(o, 'spec.ports')).map((p) => {
      const proto = str(p['protocol']) || 'TCP';
      return p['nodePort']
        ? `${num(p['port'])}:${num(p['nodePort'])}/${proto}`
        : `${num(p['port'])}/${proto}`;
    });
    return ports.length > 0 ? ports.join(',') : '<none>';
  },
  serviceSelector: (o) => {
    const sel = Object.entries((at(o, 'spec.selector') ?? {}) as Record<string, string>).map(
      ([k, v]) => `${k}=${v}`
    );
    return sel.length > 0 ? sel.join(',') : '<none>';
  },
  nodeStatus: (o) => {
    const ready = arr(at(o, 'status.conditions')).find((c) => c['type'] === 'Ready');
    const parts = [ready?.['status'] === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown'];
    if (at(o, 'spec.unschedulable') === true) parts.push('SchedulingDisabled');
    return parts.join(',');
  },
  nodeRoles: (o) => {
    const roles = Object.keys((at(o, 'metadata.labels') ?? {}) as Json)
      .filter((k) => k.startsWith('node-role.kubernetes.io/'))
      .map((k) => k.slice('node-role.kubernetes.io/'.length))
      .filter(Boolean);
    return roles.length > 0 ? roles.sort().join(',') : '<none>';
  },
  nodeInternalIP: (o) =>
    arr(at(o, 'status.addresses')).find((a) => a['type'] === 'InternalIP')?.['address'] ?? '<none>',
  nodeExternalIP: (o) =>
    arr(at(o, 'status.addresses')).find((a) => a['type'] === 'ExternalIP')?.['address'] ?? '<none>',
  eventLastSeen: (o, now) =>
    since(
      at(o, 'series.lastObservedTime') ??
        o['lastTimestamp'] ??
        o['deprecatedLastTimestamp'] ??
        o['eventTime'] ??
        at(o, 'metadata.creationTimestamp'),
      now
    ),
  eventFirstSeen: (o, now) =>
    since(
      o['firstTimestamp'] ??
        o['deprecatedFirstTimestamp'] ??
        o['eventTime'] ??
        at(o, 'metadata.creationTimestamp'),
      now
    ),
  eventObject: (o) => {
    const ref = (o['involvedObject'] ?? o['regarding'] ?? {}) as Json;
    return `${str(ref['kind']).toLowerCase()}/${str(ref['name'])}`;
  },
  eventSource: (o) => {
    const src = (o['source'] ?? o['deprecatedSource'] ?? {}) as Json;
    return (
      [str(src['component']), str(src['host'])].filter(Boolean).join(', ') ||
      str(o['reportingController']) ||
      '<none>'
    );
  },
  deploymentReady: (o) =>
    `${num(at(o, 'status.readyReplicas'))}/${typeof at(o, 'spec.replicas') === 'number' ? num(at(o, 'spec.replicas')) : 1}`,
  deploymentUpdated: (o) => num(at(o, 'status.updatedReplicas')),
  deploymentAvailable: (o) => num(at(o, 'status.availableReplicas')),
  readyReplicas: (o) => num(at(o, 'status.readyReplicas')),
  templateContainers: (o) =>
    arr(at(o, 'spec.template.spec.containers'))
      .map((c) => str(c['name']))
      .join(',') || '<none>',
  templateImages: (o) =>
    arr(at(o, 'spec.template.spec.containers'))
      .map((c) => str(c['image']))
      .join(',') || '<none>',
  labelSelector: (o) => formatSelector(at(o, 'spec.selector')),
  // printMutatingWebhook / printValidatingWebhook / printValidatingAdmissionPolicy(Binding)
  webhookCount: (o) => arr(o['webhooks']).length,
  validationCount: (o) => arr(at(o, 'spec.validations')).length,
  paramKind: (o) => {
    const pk = at(o, 'spec.paramKind') as Json | undefined;
    return pk ? `${str(pk['apiVersion'])}/${str(pk['kind'])}` : '<unset>';
  },
  paramRef: (o) => {
    const pr = at(o, 'spec.paramRef') as Json | undefined;
    if (!pr) return '<unset>';
    if (str(pr['name']) !== '')
      return str(pr['namespace']) !== ''
        ? `${str(pr['namespace'])}/${str(pr['name'])}`
        : `*/${str(pr['name'])}`;
    return pr['selector'] ? formatSelector(pr['selector']) : '<unset>';
  },
};

/** The names of the printers a column source may use ("@name"). */
export const tablePrinterNames: readonly string[] = Object.keys(printers);
