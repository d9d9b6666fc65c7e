// Legacy service-account tokens, the ones a Secret of type kubernetes.io/service-account-token
// holds (k8s pkg/serviceaccount legacy.go LegacyClaims, jwt.go JWTTokenGenerator): a JWT signed
// with --service-account-private-key-file, issuer `kubernetes/serviceaccount`, the account as
// subject, and the namespace, account name and uid and the Secret's name as private claims; no
// expiry and no audience. The gateway accepts them while the Secret holds the same token.
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { serviceAccountPrefix } from '@orch/apimachinery/auth';

/** serviceaccount.LegacyIssuer. */
export const legacyIssuer = 'kubernetes/serviceaccount';

/** The private claims of a legacy token (legacyPrivateClaims). */
export const legacyClaims = {
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUid: 'kubernetes.io/serviceaccount/service-account.uid',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  namespace: 'kubernetes.io/serviceaccount/namespace',
} as const;

export interface TokenSigningKey {
  privateKey: KeyObject;
  alg: string;
  /** k8s keyIDFromPublicKey: base64url of the SHA-256 of the DER public key. */
  kid: string;
}

function algFor(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (curve === 'prime256v1') return 'ES256';
  if (curve === 'secp384r1') return 'ES384';
  if (curve === 'secp521r1') return 'ES512';
  throw new Error(`unsupported key type ${String(key.asymmetricKeyType)}: want RSA or ECDSA`);
}

/** --service-account-private-key-file: the first private key of the PEM file. */
export function readTokenSigningKey(file: string): TokenSigningKey {
  const pem = /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]+?-----END \1PRIVATE KEY-----/.exec(
    readFileSync(file, 'utf8')
  )?.[0];
  if (!pem) throw new Error(`${file}: no private key found`);
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  const kid = createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
  return { privateKey, alg: algFor(publicKey), kid };
}

/** LegacyClaims signed: the token of `secretName` for the ServiceAccount. */
export function legacyToken(
  key: TokenSigningKey,
  sa: { namespace: string; name: string; uid: string },
  secretName: string
): Promise<string> {
  return new SignJWT({
    [legacyClaims.namespace]: sa.namespace,
    [legacyClaims.serviceAccountName]: sa.name,
    [legacyClaims.serviceAccountUid]: sa.uid,
    [legacyClaims.secretName]: secretName,
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setIssuer(legacyIssuer)
    .setSubject(`${serviceAccountPrefix}${sa.namespace}:${sa.name}`)
    .sign(key.privateKey);
}
