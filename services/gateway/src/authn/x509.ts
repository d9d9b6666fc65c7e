// Client certificates: verified by TLS against --client-ca-file; CN is the user, each O a group.
import type { TLSSocket } from 'node:tls';
import type { Authenticator } from './authenticator.js';

function asList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

export const x509Authenticator: Authenticator = {
  authenticate(req) {
    const socket = req.socket as TLSSocket;
    if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return undefined;
    const cert = socket.getPeerCertificate();
    const cn = asList(cert.subject?.CN)[0];
    if (!cn) return undefined;
    return { name: cn, uid: '', groups: [...asList(cert.subject?.O), 'system:authenticated'], extra: {} };
  },
};
