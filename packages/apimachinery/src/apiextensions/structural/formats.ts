// The string formats custom resource validation checks (apiextensions-apiserver
// pkg/apiserver/validation/formats.go supportedVersionedFormats, checked as kube-openapi's
// strfmt.Default does). Formats outside the list are stripped upstream, so they check nothing;
// int32, int64, float and double stay on integers and numbers but check nothing beyond the type.
import { isIP } from 'node:net';

// go-openapi strfmt patterns (default.go).
const hostnamePattern =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const uuidPattern = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3Pattern = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4Pattern = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5Pattern = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const creditCardPattern =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const ssnPattern = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const hexColorPattern = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rgbColorPattern =
  /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/;
const bsonObjectIdPattern = /^[0-9a-fA-F]{24}$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
// time.ParseDuration units, or the Scala form ("3 days", "1 h") strfmt also accepts.
const goDurationPattern = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
const scalaDurationPattern =
  /^[-+]?\d+\s*(ns|us|ms|s|m|h|d|w|nanos?|nanoseconds?|micros?|microseconds?|millis?|milliseconds?|seconds?|sec|minutes?|min|hours?|hr|days?|weeks?)$/;
const emailPattern = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;
const macPattern =
  /^([0-9a-fA-F]{2}([:-])(?:[0-9a-fA-F]{2}\2){4}[0-9a-fA-F]{2}|[0-9a-fA-F]{2}([:-])(?:[0-9a-fA-F]{2}\3){6}[0-9a-fA-F]{2}|[0-9a-fA-F]{2}([:-])(?:[0-9a-fA-F]{2}\4){18}[0-9a-fA-F]{2}|(?:[0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}|(?:[0-9a-fA-F]{4}\.){3}[0-9a-fA-F]{4}|(?:[0-9a-fA-F]{4}\.){9}[0-9a-fA-F]{4})$/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

function isDate(s: string): boolean {
  const m = datePattern.exec(s);
  return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isDateTime(s: string): boolean {
  const m = dateTimePattern.exec(s);
  if (!m) return false;
  if (!validDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6] ?? 0) < 60;
}

function isISBN10(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!/^\d{9}[\dX]$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(d[i]);
  sum += d[9] === 'X' ? 100 : 10 * Number(d[9]);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(d[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(d[12]);
}

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  const v = isIP(ip);
  if (v === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (v === 4 ? 32 : 128);
}

function isURI(s: string): boolean {
  // net/url.ParseRequestURI: an absolute URI or an absolute path.
  if (s.startsWith('/')) return !/\s/.test(s);
  try {
    const u = new URL(s);
    return u.protocol.length > 1;
  } catch {
    return false;
  }
}

function isByte(s: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s);
}

function isIPv4(s: string): boolean {
  return isIP(s) === 4;
}

function isIPv6(s: string): boolean {
  // net.ParseIP accepts any IP for ipv6 (strfmt checks only that it parses and has a colon).
  return isIP(s) === 6;
}

const formatCheckers: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => bsonObjectIdPattern.test(s),
  uri: isURI,
  email: (s) => emailPattern.test(s),
  hostname: (s) => s.length <= 255 && hostnamePattern.test(s),
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCIDR,
  mac: (s) => macPattern.test(s),
  uuid: (s) => uuidPattern.test(s),
  uuid3: (s) => uuid3Pattern.test(s),
  uuid4: (s) => uuid4Pattern.test(s),
  uuid5: (s) => uuid5Pattern.test(s),
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: (s) => creditCardPattern.test(s.replace(/\D/g, '')),
  ssn: (s) => ssnPattern.test(s),
  hexcolor: (s) => hexColorPattern.test(s),
  rgbcolor: (s) => rgbColorPattern.test(s),
  byte: isByte,
  password: () => true,
  date: isDate,
  duration: (s) => goDurationPattern.test(s) || scalaDurationPattern.test(s.trim()),
  datetime: isDateTime,
  k8sshortname: (s) => /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(s) && s.length <= 63,
  k8slongname: (s) =>
    s.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(s),
};

/** The name upstream checks a string format under (dashes dropped), or undefined if stripped. */
export function supportedStringFormat(format: string): string | undefined {
  const normalized = format.replaceAll('-', '');
  return Object.prototype.hasOwnProperty.call(formatCheckers, normalized) ? normalized : undefined;
}

/** Whether `value` is valid for the (supported, normalized) string format. */
export function checkStringFormat(normalized: string, value: string): boolean {
  const check = formatCheckers[normalized];
  return check === undefined || check(value);
}

/** The string formats checked, normalized (for tests and docs). */
export const supportedStringFormats: readonly string[] = Object.keys(formatCheckers);
