// Named Table printers of the platform kinds (persistent volumes and claims, networking,
// discovery, storage, scheduling, flowcontrol), cell for cell as kubectl's server-side printers
// (k8s pkg/printers/internalversion/printers.go printPersistentVolume, printIngress, ...).
type Json = Record<string, unknown>;

function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.').filter(Boolean)) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Json)[part];
  }
  return cur;
}

const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

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

/** metav1.FormatLabelSelector. */
function formatLabelSelector(sel: unknown): string {
  if (typeof sel !== 'object' || sel === null) return '<none>';
  const s = sel as Json;
  const parts = Object.entries((s['matchLabels'] ?? {}) as Record<string, string>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
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

/** listWithMoreString: up to three values, then "+ N more...", "<unset>" when none. */
function listWithMore(values: string[], max = 3): string {
  const shown = values.slice(0, max).join(',');
  if (values.length > max) return `${shown} + ${values.length - max} more...`;
  return shown === '' ? '<unset>' : shown;
}

const bool = (v: unknown, dflt: boolean): boolean => (typeof v === 'boolean' ? v : dflt);

/** A quantity as its String(): "0" when unset. */
const quantity = (v: unknown): string => (typeof v === 'string' && v !== '' ? v : '0');

const phase = (o: Json): string =>
  at(o, 'metadata.deletionTimestamp') ? 'Terminating' : str(at(o, 'status.phase'));

const limitedField = (o: Json, field: string): unknown => {
  const limited = at(o, 'spec.limited') as Json | undefined;
  if (!limited) return '<none>';
  if (field === 'nominalConcurrencyShares') return limited[field] ?? 0;
  const queuing = at(limited, 'limitResponse.queuing') as Json | undefined;
  return queuing ? (queuing[field] ?? 0) : '<none>';
};

export const platTablePrinters: Record<string, (obj: Json, now: number) => unknown> = {
  // printPersistentVolume / printPersistentVolumeClaim
  pvCapacity: (o) => quantity(at(o, 'spec.capacity.storage')),
  pvAccessModes: (o) => accessModes(at(o, 'spec.accessModes')),
  pvClaim: (o) => {
    const ref = at(o, 'spec.claimRef') as Json | undefined;
    return ref ? `${str(ref['namespace'])}/${str(ref['name'])}` : '';
  },
  volumePhase: (o) => phase(o),
  volumeAttributesClass: (o) => str(at(o, 'spec.volumeAttributesClassName')) || '<unset>',
  volumeMode: (o) => str(at(o, 'spec.volumeMode')) || '<unset>',
  pvcCapacity: (o) =>
    str(at(o, 'spec.volumeName')) ? quantity(at(o, 'status.capacity.storage')) : '',
  pvcAccessModes: (o) =>
    str(at(o, 'spec.volumeName')) ? accessModes(at(o, 'status.accessModes')) : '',
  // printIngress / printIngressClass / printNetworkPolicy
  ingressClass: (o) => str(at(o, 'spec.ingressClassName')) || '<none>',
  ingressHosts: (o) => {
    const rules = arr(at(o, 'spec.rules'));
    const hosts: string[] = [];
    let more = false;
    for (const r of rules) {
      if (hosts.length === 3) more = true;
      if (!more && str(r['host']) !== '') hosts.push(str(r['host']));
    }
    if (hosts.length === 0) return '*';
    return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
  },
  ingressAddress: (o) =>
    arr(at(o, 'status.loadBalancer.ingress'))
      .map((i) => str(i['ip']) || str(i['hostname']))
      .filter(Boolean)
      .join(','),
  ingressPorts: (o) => (arr(at(o, 'spec.tls')).length > 0 ? '80, 443' : '80'),
  ingressClassParameters: (o) => {
    const p = at(o, 'spec.parameters') as Json | undefined;
    if (!p) return '<none>';
    const kind = str(p['apiGroup']) ? `${str(p['kind'])}.${str(p['apiGroup'])}` : str(p['kind']);
    return `${kind}/${str(p['name'])}`;
  },
  podSelector: (o) => formatLabelSelector(at(o, 'spec.podSelector')),
  // printEndpointSlice
  endpointSlicePorts: (o) =>
    listWithMore(
      arr(o['ports']).map((p) =>
        typeof p['port'] === 'number' ? String(p['port']) : str(p['name']) || '*'
      )
    ),
  endpointSliceEndpoints: (o) =>
    listWithMore(arr(o['endpoints']).flatMap((e) => arr(e['addresses']).map(String))),
  // printStorageClass / printCSIDriver / printCSINode / printVolumeAttachment / printCSIStorageCapacity
  storageClassReclaimPolicy: (o) => str(o['reclaimPolicy']) || 'Delete',
  storageClassBindingMode: (o) => str(o['volumeBindingMode']) || 'Immediate',
  storageClassExpansion: (o) => bool(o['allowVolumeExpansion'], false),
  csiAttachRequired: (o) => bool(at(o, 'spec.attachRequired'), true),
  csiPodInfoOnMount: (o) => bool(at(o, 'spec.podInfoOnMount'), false),
  csiStorageCapacity: (o) => bool(at(o, 'spec.storageCapacity'), false),
  csiTokenRequests: (o) => {
    const audiences = arr(at(o, 'spec.tokenRequests')).map((t) => str(t['audience']));
    return audiences.length > 0 ? audiences.join(',') : '<unset>';
  },
  csiRequiresRepublish: (o) => bool(at(o, 'spec.requiresRepublish'), false),
  csiModes: (o) => arr(at(o, 'spec.volumeLifecycleModes')).map(String).join(',') || '<none>',
  csiNodeDrivers: (o) => arr(at(o, 'spec.drivers')).length,
  volumeAttached: (o) => bool(at(o, 'status.attached'), false),
  storageCapacity: (o) => str(o['capacity']) || '<unset>',
  // printPriorityClass
  globalDefault: (o) => bool(o['globalDefault'], false),
  preemptionPolicy: (o) => str(o['preemptionPolicy']) || 'PreemptLowerPriority',
  // printFlowSchema / printPriorityLevelConfiguration
  matchingPrecedence: (o) => at(o, 'spec.matchingPrecedence') ?? 0,
  distinguisherMethod: (o) => str(at(o, 'spec.distinguisherMethod.type')) || '<none>',
  missingPriorityLevel: (o) => {
    const c = arr(at(o, 'status.conditions')).find((x) => x['type'] === 'Dangling');
    return c ? str(c['status']) : '?';
  },
  plNominalConcurrencyShares: (o) => limitedField(o, 'nominalConcurrencyShares'),
  plQueues: (o) => limitedField(o, 'queues'),
  plHandSize: (o) => limitedField(o, 'handSize'),
  plQueueLengthLimit: (o) => limitedField(o, 'queueLengthLimit'),
};
