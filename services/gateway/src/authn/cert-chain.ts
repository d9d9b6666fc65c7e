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
 */
export function verifiedPeerChain(socket: TLSSocket, roots: X509Certificate[]): boolean {
  if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized || roots.length === 0) return false;
  let peer: PeerCertificate | DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const now = Date.now();
  for (let depth = 0; peer && peer.raw && depth < 10; depth++) {
    const cert = new X509Certificate(peer.raw);
    if (Date.parse(cert.validFrom) > now || Date.parse(cert.validTo) < now) return false;
    for (const root of roots) {
      if (root.raw.equals(cert.raw)) return true;
      if (cert.checkIssued(root) && cert.verify(root.publicKey)) return true;
    }
    const issuer: DetailedPeerCertificate | undefined = (peer as DetailedPeerCertificate).issuerCertificate;
    if (!issuer || issuer === peer || issuer.raw.equals(peer.raw)) return false;
    if (!cert.checkIssued(new X509Certificate(issuer.raw)) || !cert.verify(new X509Certificate(issuer.raw).publicKey)) return false;
    peer = issuer;
  }
  return false;
}
