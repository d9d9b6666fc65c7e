// The manager of a non-apply write (k8s handlers managerOrUserAgent and prefixFromUserAgent):
// the fieldManager parameter, or the client's program name from its user agent (the text
// before the first `/`, printable characters only, at most 128 bytes).
const fieldManagerMaxLength = 128;
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

export function prefixFromUserAgent(userAgent: string): string {
  const m = userAgent.split('/')[0] ?? '';
  let out = '';
  let bytes = 0;
  for (const ch of m) {
    if (!printable.test(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > fieldManagerMaxLength) break;
    out += ch;
    bytes += n;
  }
  return out;
}

export function managerOrUserAgent(manager: string, userAgent: string): string {
  return manager !== '' ? manager : prefixFromUserAgent(userAgent);
}
