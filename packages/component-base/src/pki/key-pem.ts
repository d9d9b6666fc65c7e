import { createPrivateKey, webcrypto } from 'node:crypto';

import { x509 } from './x509.js';

/** A certificate and its private key, both PEM (key as PKCS#8 `PRIVATE KEY`). */
export interface KeyPairPem {
  certPem: string;
  keyPem: string;
}

/** The key algorithm of every key the PKI generates. */
export const ecdsaP256: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };

/** Generates an extractable ECDSA P-256 key pair. */
export async function generateKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ecdsaP256, true, ['sign', 'verify']);
}

/** Encodes a private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). */
export async function privateKeyToPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/**
 * Imports a PEM private key (PKCS#8, or SEC1 `EC PRIVATE KEY`) as an ECDSA signing key; the curve
 * is read from the key itself.
 */
export async function privateKeyFromPem(pem: string): Promise<webcrypto.CryptoKey> {
  const keyObject = createPrivateKey(pem);
  if (keyObject.asymmetricKeyType !== 'ec') {
    throw new Error(`unsupported private key type ${String(keyObject.asymmetricKeyType)}: want EC`);
  }
  const curve = keyObject.asymmetricKeyDetails?.namedCurve;
  const namedCurve = curve === 'prime256v1' ? 'P-256' : curve === 'secp384r1' ? 'P-384' : undefined;
  if (!namedCurve) {
    throw new Error(`unsupported EC curve ${String(curve)}: want P-256 or P-384`);
  }
  const der = keyObject.export({ format: 'der', type: 'pkcs8' });
  return webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve }, false, ['sign']);
}

/** The ECDSA signature algorithm matching a signing key (SHA-384 for P-384, else SHA-256). */
export function signingAlgorithmFor(key: webcrypto.CryptoKey): webcrypto.EcdsaParams {
  const curve = (key.algorithm as webcrypto.EcKeyAlgorithm).namedCurve;
  return { name: 'ECDSA', hash: curve === 'P-384' ? 'SHA-384' : 'SHA-256' };
}
