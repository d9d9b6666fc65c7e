// Client certificates: the chain must lead to a CA of --client-ca-file; CN is the user, each O a group.
import type { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { Authenticator } from './authenticator.js';
import { verifiedPeerChain } from './cert-chain.js';
import { connectionOf } from '../http/handler.js';

function asList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The subject of a connection's certificate, read once per connection. */
const subjects = new WeakMap<TLSSocket, Partial<Record<string, string | string[]>>>();

/** Accepts client certificates whose chain (verified by TLS) ends at one of `roots`. */
export function x509Authenticator(roots: X509Certificate[]): Authenticator {
  return {
    authenticate(req) {
      const socket = connectionOf(req);
      if (!verifiedPeerChain(socket, roots)) return undefined;
      let subject = subjects.get(socket);
      if (!subject) subjects.set(socket, (subject = socket.getPeerCertificate().subject ?? {}));
      const cn = asList(subject.CN)[0];
      if (!cn) return undefined;
      return { name: cn, uid: '', groups: asList(subject.O), extra: {} };
    },
  };
}
