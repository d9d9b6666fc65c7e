// Keys of service-account tokens: PEM files holding RSA or ECDSA keys, private or public (or
// certificates); a private key file also yields its public half for verification.
import { X509Certificate, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface VerifyKey {
  key: KeyObject;
  alg: string;
  kid: string;
}

export interface SigningKey extends VerifyKey {
  privateKey: KeyObject;
}

/** The JOSE algorithm of a key: RS256 for RSA, ES256/384/512 by EC curve. */
export function algFor(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    throw new Error(`unsupported EC curve ${String(curve)}`);
  }
  throw new Error(`unsupported key type ${String(key.asymmetricKeyType)}: want RSA or ECDSA`);
}

/** k8s key id: base64url of the SHA-256 of the DER public key. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

const pemBlocks = (text: string): { label: string; pem: string }[] =>
  [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g)].map((m) => ({
    label: m[1] ?? '',
    pem: m[0],
  }));

/** Every public key of the PEM files (private keys contribute their public half). */
export function readVerifyKeys(files: string[]): VerifyKey[] {
  const keys: VerifyKey[] = [];
  for (const file of files) {
    const blocks = pemBlocks(readFileSync(file, 'utf8'));
    const before = keys.length;
    for (const { label, pem } of blocks) {
      let pub: KeyObject;
      if (label === 'CERTIFICATE') pub = new X509Certificate(pem).publicKey;
      else if (label.endsWith('PRIVATE KEY')) pub = createPublicKey(createPrivateKey(pem));
      else if (label.endsWith('PUBLIC KEY')) pub = createPublicKey(pem);
      else continue;
      keys.push({ key: pub, alg: algFor(pub), kid: keyIdOf(pub) });
    }
    if (keys.length === before) throw new Error(`${file}: no RSA or ECDSA key found`);
  }
  return keys;
}

export function readSigningKey(file: string): SigningKey {
  const block = pemBlocks(readFileSync(file, 'utf8')).find((b) => b.label.endsWith('PRIVATE KEY'));
  if (!block) throw new Error(`${file}: no private key found`);
  const privateKey = createPrivateKey(block.pem);
  const key = createPublicKey(privateKey);
  return { privateKey, key, alg: algFor(key), kid: keyIdOf(key) };
}
