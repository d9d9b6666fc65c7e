// Which CA bundle a TLS client's certificate chains to. The listener trusts the union of the
// client CA and the request-header CA (so TLS proves possession of the key and checks the chain);
// each authenticator then asks whether the chain ends at its own bundle.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PeerCertificate, DetailedPeerCertificate, TLSSocket } from 'node:tls';

/** Every certificate of a PEM bundle. */
export function readCertBundle(file: string): X509Certificate[] {
  const text = readFileSync(file, 'utf8');
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error(`${file}: no PEM certificate found`);
  return blocks.map((b) => new X509Certificate(b));
}

/**
 * True when the TLS layer verified the peer's chain and it is issued by (or is) one of `roots`.
 * The walk follows the presented chain; every link is checked by signature and validity.
 * A connection's chain never changes, so the verdict is kept per socket (and per bundle) until
 * the first certificate of the chain expires; a reloaded bundle is a new array and a new verdict.
 */
export function verifiedPeerChain(socket: TLSSocket, roots: X509Certificate[]): boolean {
  if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized || roots.length === 0)
    return false;
  let perSocket = verdicts.get(socket);
  const cached = perSocket?.get(roots);
  const now = Date.now();
  if (cached && now < cached.until) return cached.ok;
  const verdict = walkChain(socket.getPeerCertificate(true), roots, now);
  if (!perSocket) verdicts.set(socket, (perSocket = new WeakMap()));
  perSocket.set(roots, verdict);
  return verdict.ok;
}

interface Verdict {
  ok: boolean;
  /** When to walk again: the earliest expiry met on the way (never later for a refusal). */
  until: number;
}

const verdicts = new WeakMap<TLSSocket, WeakMap<X509Certificate[], Verdict>>();

function walkChain(
  first: PeerCertificate | DetailedPeerCertificate | undefined,
  roots: X509Certificate[],
  now: number
): Verdict {
  let until = Infinity;
  const refuse = (): Verdict => ({ ok: false, until: now });
  let peer = first;
  for (let depth = 0; peer && peer.raw && depth < 10; depth++) {
    const cert = new X509Certificate(peer.raw);
    const notAfter = Date.parse(cert.validTo);
    if (Date.parse(cert.validFrom) > now || notAfter < now) return refuse();
    until = Math.min(until, notAfter);
    for (const root of roots) {
      if (root.raw.equals(cert.raw)) return { ok: true, until };
      if (cert.checkIssued(root) && cert.verify(root.publicKey))
        return { ok: true, until: Math.min(until, Date.parse(root.validTo)) };
    }
    const issuer: DetailedPeerCertificate | undefined = (peer as DetailedPeerCertificate)
      .issuerCertificate;
    if (!issuer || issuer === peer || issuer.raw.equals(peer.raw)) return refuse();
    const issuerCert = new X509Certificate(issuer.raw);
    if (!cert.checkIssued(issuerCert) || !cert.verify(issuerCert.publicKey)) return refuse();
    peer = issuer;
  }
  return refuse();
}
