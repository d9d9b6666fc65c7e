/**
 * Name, label and annotation rules, ported from k8s.io/apimachinery `util/validation`
 * and `api/validation`. Every `is*` function returns the list of violated rules as
 * k8s words them (empty when the value is valid), so callers can wrap them as field
 * errors without rephrasing.
 */
import { randomInt } from 'node:crypto';
import { fieldInvalid, fieldTooLong } from '../errors/field-errors.js';
import type { FieldPath } from '../errors/field-errors.js';
import type { FieldError } from '../errors/status-error.js';

/** How an object's `metadata.name` is checked, per resource. */
export type ObjectNameRule = 'subdomain' | 'label' | 'path-segment';

export interface ValidateObjectNameOptions {
  /** True when checking a `generateName` prefix: a trailing `-` is then allowed. */
  readonly prefix?: boolean;
}

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123LabelMaxLength = 63;
const dns1123LabelRegexp = new RegExp(`^${dns1123LabelFmt}$`);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainMaxLength = 253;
const dns1123SubdomainRegexp = new RegExp(`^${dns1123SubdomainFmt}$`);

const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameMaxLength = 63;
const qualifiedNameRegexp = new RegExp(`^${qualifiedNameFmt}$`);

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueMaxLength = 63;
const labelValueRegexp = new RegExp(`^${labelValueFmt}$`);

/** Longest name `generateName` produces (k8s `maxNameLength`). */
const maxGeneratedNameLength = 63;
const randomSuffixLength = 5;
/** k8s `utilrand` alphabet: no vowels (no words) and no confusable characters. */
const randomAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** Total bytes of annotation keys and values (k8s `TotalAnnotationSizeLimitB`). */
export const totalAnnotationSizeLimitBytes = 256 * 1024;

/** Go's `len(string)`: the UTF-8 byte length. */
function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function emptyError(): string {
  return 'must be non-empty';
}

function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) {
    return `${msg} (regex used for validation is '${fmt}')`;
  }
  const quoted = examples.map((e) => `'${e}', `).join(' or ');
  return `${msg} (e.g. ${quoted}regex used for validation is '${fmt}')`;
}

/** k8s `IsDNS1123Label`: lower case alphanumerics and '-', at most 63 characters. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > dns1123LabelMaxLength) {
    errs.push(maxLenError(dns1123LabelMaxLength));
  }
  if (!dns1123LabelRegexp.test(value)) {
    if (dns1123SubdomainRegexp.test(value)) {
      // A valid subdomain but not a valid label: the length was checked, so it must be dots.
      errs.push('must not contain dots');
    } else {
      errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
    }
  }
  return errs;
}

/** k8s `IsDNS1123Subdomain`: dot-separated DNS labels, at most 253 characters. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > dns1123SubdomainMaxLength) {
    errs.push(maxLenError(dns1123SubdomainMaxLength));
  }
  if (!dns1123SubdomainRegexp.test(value)) {
    errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  }
  return errs;
}

/** k8s `IsValidPathSegmentName`: not `.` or `..`, and no `/` or `%`. */
export function isValidPathSegmentName(value: string): string[] {
  for (const illegal of ['.', '..']) {
    if (value === illegal) {
      return [`may not be '${illegal}'`];
    }
  }
  const errs: string[] = [];
  for (const illegal of ['/', '%']) {
    if (value.includes(illegal)) {
      errs.push(`may not contain '${illegal}'`);
    }
  }
  return errs;
}

/**
 * k8s `IsQualifiedName`: an optional DNS-subdomain prefix and '/', then a name of at most
 * 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric. Label keys and
 * annotation keys follow this rule.
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) {
      errs.push(`prefix part ${emptyError()}`);
    } else {
      errs.push(...isDNS1123Subdomain(prefix).map((msg) => `prefix part ${msg}`));
    }
  } else {
    errs.push(
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
    );
    return errs;
  }
  if (name.length === 0) {
    errs.push(`name part ${emptyError()}`);
  } else if (byteLength(name) > qualifiedNameMaxLength) {
    errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  }
  if (!qualifiedNameRegexp.test(name)) {
    errs.push(
      `name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`
    );
  }
  return errs;
}

/** k8s `IsValidLabelValue`: empty, or a qualified name without prefix (at most 63 characters). */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > labelValueMaxLength) {
    errs.push(maxLenError(labelValueMaxLength));
  }
  if (!labelValueRegexp.test(value)) {
    errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

/**
 * k8s `maskTrailingDash`: a `generateName` prefix may end in '-', since random characters
 * follow it.
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

/**
 * Checks an object name (or, with `{ prefix: true }`, a `generateName` prefix) by the
 * resource's rule, like k8s `NameIsDNSSubdomain`, `NameIsDNSLabel` and
 * `ValidatePathSegmentName`. An empty name is the caller's "required" error, not checked
 * here beyond what the rule itself says.
 */
export function validateObjectName(
  name: string,
  rule: ObjectNameRule,
  options: ValidateObjectNameOptions = {}
): string[] {
  const value = options.prefix === true ? maskTrailingDash(name) : name;
  switch (rule) {
    case 'subdomain':
      return isDNS1123Subdomain(value);
    case 'label':
      return isDNS1123Label(value);
    case 'path-segment':
      // k8s `IsValidPathSegmentPrefix`: a prefix may be '.' or '..', as characters follow it.
      return options.prefix === true
        ? isValidPathSegmentName(name).filter((msg) => msg.startsWith('may not contain'))
        : isValidPathSegmentName(name);
  }
}

/**
 * k8s `SimpleNameGenerator`: `base` (truncated so the result fits in 63 characters)
 * followed by 5 random characters from `bcdfghjklmnpqrstvwxz2456789`.
 */
export function generateName(base: string): string {
  const maxBase = maxGeneratedNameLength - randomSuffixLength;
  const prefix = base.length > maxBase ? base.slice(0, maxBase) : base;
  let suffix = '';
  for (let i = 0; i < randomSuffixLength; i++) {
    suffix += randomAlphabet.charAt(randomInt(randomAlphabet.length));
  }
  return prefix + suffix;
}

/** k8s `ValidateLabels`: every key a qualified name, every value a valid label value. */
export function validateLabels(
  labels: Readonly<Record<string, string>> | undefined,
  field: FieldPath | string = 'metadata.labels'
): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const message of isQualifiedName(key)) errs.push(fieldInvalid(field, key, message));
    for (const message of isValidLabelValue(value)) errs.push(fieldInvalid(field, value, message));
  }
  return errs;
}

/**
 * k8s `ValidateAnnotations`: every key a qualified name (case-insensitively), and keys plus
 * values at most 256 KiB in total.
 */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
  field: FieldPath | string = 'metadata.annotations'
): FieldError[] {
  const errs: FieldError[] = [];
  let totalSize = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    for (const message of isQualifiedName(key.toLowerCase())) {
      errs.push(fieldInvalid(field, key, message));
    }
    totalSize += byteLength(key) + byteLength(value);
  }
  if (totalSize > totalAnnotationSizeLimitBytes) {
    errs.push(fieldTooLong(field, totalAnnotationSizeLimitBytes));
  }
  return errs;
}
