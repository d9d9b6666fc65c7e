// The named printers of the core kinds' Table columns, cell for cell as kubectl's server-side
// printers (k8s pkg/printers/internalversion/printers.go: printConfigMap, printSecret,
// printServiceAccount, printPod, printService, printNode, printEvent, printResourceQuota,
// printPodTemplate, printReplicationController, printEndpoints, printPersistentVolume,
// printPersistentVolumeClaim). The event printers also serve events.orch.io's Event.
import type { TablePrinter } from '../types.js';
import {
  arr,
  at,
  containerImages,
  containerNames,
  formatLabels,
  humanDuration,
  num,
  since,
  str,
} from '../table-cells.js';

type Json = Record<string, unknown>;

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

// printResourceQuota: `<resource>: <used>/<hard>` for each resource of status.hard, sorted,
// the `limits.` ones in Limit and the others in Request.
function quotaUsage(o: Json, limits: boolean): string {
  const hard = (at(o, 'status.hard') ?? {}) as Json;
  const used = (at(o, 'status.used') ?? {}) as Json;
  return Object.keys(hard)
    .sort()
    .filter((r) => r.startsWith('limits.') === limits)
    .map((r) => `${r}: ${str(used[r]) || '0'}/${str(hard[r])}`)
    .join(', ');
}

/** formatEndpoints: the first three ip:port pairs, then "+ N more...". */
function formatEndpoints(o: Json): string {
  const subsets = arr(o['subsets']);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  const add = (entry: string): void => {
    if (list.length === max) more = true;
    else list.push(entry);
  };
  for (const ss of subsets) {
    const addresses = arr(ss['addresses']);
    const ports = arr(ss['ports']);
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) add(str(a['ip']));
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      for (const a of addresses) {
        const ip = str(a['ip']);
        add(`${ip.includes(':') ? `[${ip}]` : ip}:${num(p['port'])}`);
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

/** helper.GetAccessModesAsString: the modes in a fixed order, each once. */
function accessModes(modes: unknown): string {
  const have = new Set(Array.isArray(modes) ? modes.map(String) : []);
  const short: [string, string][] = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return short
    .filter(([m]) => have.has(m))
    .map(([, s]) => s)
    .join(',');
}

/** A quantity as its String(): "0" when unset. */
const quantity = (v: unknown): string => (typeof v === 'string' && v !== '' ? v : '0');

const volumePhase = (o: Json): string =>
  at(o, 'metadata.deletionTimestamp') ? 'Terminating' : str(at(o, 'status.phase'));

export const coreTablePrinters: Readonly<Record<string, TablePrinter>> = {
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
  quotaRequest: (o) => quotaUsage(o, false),
  quotaLimit: (o) => quotaUsage(o, true),
  podTemplateContainers: (o) => containerNames(at(o, 'template.spec')),
  podTemplateImages: (o) => containerImages(at(o, 'template.spec')),
  podTemplateLabels: (o) => formatLabels(at(o, 'template.metadata.labels')),
  mapSelector: (o) => formatLabels(at(o, 'spec.selector')),
  endpoints: (o) => formatEndpoints(o),
  // printPersistentVolume / printPersistentVolumeClaim
  pvCapacity: (o) => quantity(at(o, 'spec.capacity.storage')),
  pvAccessModes: (o) => accessModes(at(o, 'spec.accessModes')),
  pvClaim: (o) => {
    const ref = at(o, 'spec.claimRef') as Json | undefined;
    return ref ? `${str(ref['namespace'])}/${str(ref['name'])}` : '';
  },
  volumePhase: (o) => volumePhase(o),
  volumeAttributesClass: (o) => str(at(o, 'spec.volumeAttributesClassName')) || '<unset>',
  volumeMode: (o) => str(at(o, 'spec.volumeMode')) || '<unset>',
  pvcCapacity: (o) =>
    str(at(o, 'spec.volumeName')) ? quantity(at(o, 'status.capacity.storage')) : '',
  pvcAccessModes: (o) =>
    str(at(o, 'spec.volumeName')) ? accessModes(at(o, 'status.accessModes')) : '',
};
