// The authenticating proxy (--requestheader-*): only a connection whose client certificate chains
// to --requestheader-client-ca-file (with an allowed CN, when a list is given) may name the user
// in headers. Username and uid from the first listed header with a value, groups from every value
// of the group headers, extras from prefixed headers (key lowercased and percent-decoded).
import type { HttpRequest } from '../http/handler.js';
import type { X509Certificate } from 'node:crypto';
import type { RequestHeaderConfig } from './authentication-options.js';
import type { Authenticator } from './authenticator.js';
import { verifiedPeerChain } from './cert-chain.js';
import { connectionOf } from '../http/handler.js';

/** Every value of a header, repeated headers separately (from rawHeaders). */
function headerValues(req: HttpRequest, name: string): string[] {
  const want = name.toLowerCase();
  const out: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    if ((req.rawHeaders[i] ?? '').toLowerCase() === want) out.push(req.rawHeaders[i + 1] ?? '');
  return out;
}

const firstValue = (req: HttpRequest, names: string[]): string | undefined => {
  for (const n of names) {
    const v = headerValues(req, n).find((x) => x.trim() !== '');
    if (v !== undefined) return v.trim();
  }
  return undefined;
};

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key).toLowerCase();
  } catch {
    return key.toLowerCase();
  }
}

export function requestHeaderAuthenticator(
  c: RequestHeaderConfig,
  roots: X509Certificate[]
): Authenticator {
  return {
    authenticate(req) {
      const name = firstValue(req, c.usernameHeaders);
      if (name === undefined) return undefined;
      const socket = connectionOf(req);
      if (!verifiedPeerChain(socket, roots)) return undefined; // not the proxy: the headers mean nothing
      if (c.allowedNames.length > 0) {
        const cn = socket.getPeerCertificate().subject?.CN;
        const cns = Array.isArray(cn) ? cn : cn ? [cn] : [];
        if (!cns.some((x) => c.allowedNames.includes(x))) return undefined;
      }
      const groups = c.groupHeaders
        .flatMap((h) => headerValues(req, h))
        .map((g) => g.trim())
        .filter(Boolean);
      const extra: Record<string, string[]> = {};
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        const h = (req.rawHeaders[i] ?? '').toLowerCase();
        const prefix = c.extraHeaderPrefixes.find((p) => h.startsWith(p.toLowerCase()));
        if (!prefix) continue;
        const key = decodeKey(h.slice(prefix.length));
        if (key) (extra[key] ??= []).push(req.rawHeaders[i + 1] ?? '');
      }
      return { name, uid: firstValue(req, c.uidHeaders) ?? '', groups, extra };
    },
  };
}
