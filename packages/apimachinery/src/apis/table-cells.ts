// What the groups' Table printers share (upstream's pkg/printers and the helpers of
// pkg/printers/internalversion/printers.go): reading an object by a dotted path, kubectl's human
// durations, label and selector formats.
type Json = Record<string, unknown>;

/** The value at a dotted path of an object, undefined when a step is missing. */
export function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.').filter(Boolean)) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Json)[part];
  }
  return cur;
}

export const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
/** A boolean field, or its default when unset. */
export const bool = (v: unknown, dflt: boolean): boolean => (typeof v === 'boolean' ? v : dflt);

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

/** The age of a timestamp at `now` (translateTimestampSince), "<unknown>" when it is not one. */
export function since(ts: unknown, now: number): string {
  if (typeof ts !== 'string' || ts === '') return '<unknown>';
  const t = Date.parse(ts);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

/** labels.FormatLabels: k=v pairs sorted by key, "<none>" when empty. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries((labels ?? {}) as Record<string, string>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0
  );
  return entries.length > 0 ? entries.map(([k, v]) => `${k}=${v}`).join(',') : '<none>';
}

/** metav1.FormatLabelSelector: matchLabels as written, then the expressions; "<none>" when empty. */
export function formatLabelSelector(sel: unknown): string {
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

/** The names of a pod spec's containers, comma separated ("<none>" without any). */
export const containerNames = (spec: unknown): string =>
  arr(at(spec, 'containers'))
    .map((c) => str(c['name']))
    .join(',') || '<none>';

/** The images of a pod spec's containers, comma separated ("<none>" without any). */
export const containerImages = (spec: unknown): string =>
  arr(at(spec, 'containers'))
    .map((c) => str(c['image']))
    .join(',') || '<none>';
