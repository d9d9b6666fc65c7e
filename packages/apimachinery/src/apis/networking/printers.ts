// The named printers of the networking kinds' Table columns, cell for cell as kubectl's
// server-side printers (k8s pkg/printers/internalversion/printers.go: printIngress,
// printIngressClass, printNetworkPolicy).
import type { TablePrinter } from '../types.js';
import { arr, at, str } from '../table-cells.js';

type Json = Record<string, unknown>;

/** metav1.FormatLabelSelector, matchLabels sorted by key. */
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

export const networkingTablePrinters: Readonly<Record<string, TablePrinter>> = {
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
};
