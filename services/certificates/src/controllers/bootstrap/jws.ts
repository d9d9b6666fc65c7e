// Detached HS256 JWS over the cluster-info kubeconfig (upstream k8s.io/cluster-bootstrap
// token/jws): a compact JWS with protected header {"alg":"HS256","kid":<token id>} whose
// payload part is left out (`<header>..<signature>`, RFC 7515 appendix F). Signed with jose.
import { CompactSign } from 'jose';

/** The detached signature of `content` under `key` (the bootstrap signer passes the full token). */
export async function computeDetachedSignature(
  content: string,
  tokenId: string,
  key: string
): Promise<string> {
  // HMAC pads a short key with zeros to its block size; so does upstream's 32-byte padding.
  const secret = Buffer.alloc(Math.max(32, Buffer.byteLength(key)));
  Buffer.from(key).copy(secret);
  const full = await new CompactSign(new TextEncoder().encode(content))
    .setProtectedHeader({ alg: 'HS256', kid: tokenId })
    .sign(secret);
  const [header, , signature] = full.split('.');
  return `${header}..${signature}`;
}

/** Whether a detached signature is the one of `content` under `key` (upstream DetachedTokenIsValid). */
export async function detachedTokenIsValid(
  detached: string,
  content: string,
  tokenId: string,
  key: string
): Promise<boolean> {
  return detached === (await computeDetachedSignature(content, tokenId, key));
}
