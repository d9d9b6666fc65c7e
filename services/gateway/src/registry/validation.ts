// Validation every group's strategies share, as k8s.io/apimachinery writes it (pkg/api/validation,
// pkg/util/validation, resource.Quantity): immutable fields, config keys, quantities, IPs and
// CIDRs, port numbers and names, DNS labels. Messages are upstream's, word for word.
import { fieldInvalid } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { fieldImmutableErrorMsg, isDNS1123Label, sameJson } from '@orch/apimachinery/meta';

const configKeyFmt = '[-._a-zA-Z0-9]+';
const configKeyRegexp = /^[-._a-zA-Z0-9]+$/;

/** validation.IsConfigMapKey: the keys of ConfigMap and Secret data. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!configKeyRegexp.test(value))
    errs.push(
      `a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '${configKeyFmt}')`
    );
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** ValidateImmutableField: `<path>: Invalid value: ...: field is immutable`. */
export function immutable(next: unknown, old: unknown, path: FieldPath | string): FieldError[] {
  return sameJson(next ?? null, old ?? null)
    ? []
    : [fieldInvalid(path, next, fieldImmutableErrorMsg)];
}

const suffixes: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A resource.Quantity's value as a number (enough to compare sizes), undefined if malformed. */
export function quantityValue(q: unknown): number | undefined {
  if (typeof q === 'number') return q;
  if (typeof q !== 'string') return undefined;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/.exec(
    q
  );
  if (!m) return undefined;
  const n = Number(m[1]);
  if (m[2]) return n * 10 ** Number(m[2].slice(1));
  return n * (suffixes[m[3] ?? ''] ?? 1);
}

/** validation.IsValidIP (IPv4 or IPv6). */
export function isValidIP(value: string): boolean {
  if (/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(value))
    return value.split('.').every((p) => Number(p) <= 255 && (p === '0' || !p.startsWith('0')));
  if (!value.includes(':') || /[^0-9a-fA-F:.]/.test(value)) return false;
  const double = value.split('::');
  if (double.length > 2) return false;
  const groups = value
    .replace('::', ':x:')
    .split(':')
    .filter((g) => g !== '');
  const last = groups[groups.length - 1] ?? '';
  const v4 = last.includes('.');
  if (v4 && !isValidIP(last)) return false;
  const hex = groups.filter((g) => g !== 'x' && !g.includes('.'));
  if (!hex.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const width = hex.length + (v4 ? 2 : 0);
  return double.length === 2 ? width < 8 : width === 8;
}

/** validation.IsValidCIDR. */
export function isValidCIDR(value: string): boolean {
  const [ip, bits, more] = value.split('/');
  if (ip === undefined || bits === undefined || more !== undefined || !/^\d{1,3}$/.test(bits))
    return false;
  return isValidIP(ip) && Number(bits) <= (ip.includes(':') ? 128 : 32);
}

/** validation.IsValidPortNum. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535
    ? []
    : ['must be between 1 and 65535, inclusive'];
}

/** validation.IsValidPortName: an IANA_SVC_NAME. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push("must not contain consecutive hyphens ('--')");
  if (port.startsWith('-') || port.endsWith('-'))
    errs.push("must not begin or end with a hyphen ('-')");
  return errs;
}

/** A DNS label field (ValidateDNS1123Label), each message an Invalid error. */
export function dnsLabel(value: string, path: FieldPath): FieldError[] {
  return isDNS1123Label(value).map((m) => fieldInvalid(path, value, m));
}
