// What /configz and /flagz show: the effective configuration with secrets replaced.

const secretKey = /(password|passwd|token|secret|credential|privatekey$|^key$|-data$)/i;

/** A key whose value is a secret (paths to files are not: `*File`, `*-file`). */
export function isSecretKey(key: string): boolean {
  return !/file$/i.test(key) && secretKey.test(key);
}

/** A JSON-safe copy of `value`: secrets, buffers, keys and functions as "[redacted]". */
export function redact(value: unknown, key = ''): unknown {
  if (key && isSecretKey(key)) return '[redacted]';
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'bigint' ? '[redacted]' : value;
  }
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return '[redacted]';
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value instanceof Set) return [...value].map((v) => redact(v));
  if (value instanceof Map) return redact(Object.fromEntries(value));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redact(v, k);
  return out;
}
