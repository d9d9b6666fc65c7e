// The scalars with a JSON form of their own: timestamps (RFC 3339 ↔ seconds and nanos),
// quantities, durations.

const rfc3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp into seconds since the epoch and nanoseconds; undefined if malformed. */
export function parseTime(text: string): { seconds: number; nanos: number } | undefined {
  const m = rfc3339.exec(text);
  if (!m) return undefined;
  const whole = text.replace(/\.\d+/, '');
  const ms = Date.parse(whole);
  if (Number.isNaN(ms)) return undefined;
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  return { seconds: Math.floor(ms / 1000), nanos };
}

/** Formats seconds and nanos as RFC 3339 in UTC: whole seconds, or microseconds for micro-time. */
export function formatTime(seconds: number, nanos: number, micro: boolean): string {
  const base = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  if (!micro) return `${base}Z`;
  return `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}

// Quantity: <signedNumber><suffix>, suffix binary (Ki..Ei), decimal SI (n u m k M G T P E) or an exponent.
const quantityPattern =
  /^[+-]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

export function isQuantity(text: string): boolean {
  return quantityPattern.test(text);
}

const durationUnits: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Parses a Go duration string ("1h2m3.5s") into nanoseconds; undefined if malformed. */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const m = /^([+-])?((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(text);
  if (!m) return undefined;
  let total = 0;
  for (const part of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(part[1]) * (durationUnits[part[2] ?? 's'] ?? 0);
  }
  return Math.round(m[1] === '-' ? -total : total);
}

/** Formats nanoseconds as Go's Duration.String does for whole hours, minutes and seconds. */
export function formatDuration(nanos: number): string {
  if (nanos === 0) return '0s';
  const sign = nanos < 0 ? '-' : '';
  let n = Math.abs(nanos);
  if (n < 1e9) return `${sign}${n < 1e3 ? `${n}ns` : n < 1e6 ? `${n / 1e3}µs` : `${n / 1e6}ms`}`;
  const h = Math.floor(n / 3600e9);
  n -= h * 3600e9;
  const m = Math.floor(n / 60e9);
  n -= m * 60e9;
  const s = n / 1e9;
  return `${sign}${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}
