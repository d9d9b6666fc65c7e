// The check of spec.request on a CertificateSigningRequest write (upstream's validateCSR in
// pkg/apis/certificates/validation: certificates.ParseCSR, then csr.CheckSignature): exactly a
// PEM `CERTIFICATE REQUEST` block holding a PKCS#10 request whose self-signature verifies, parsed
// with @peculiar/x509. The answer is the field error, or undefined when the request is sound.
import { fieldInvalid, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import { x509 } from '@orch/component-base/pki';

const requestPath = newPath('spec', 'request');

/** The PEM blocks of a text: type, headers present, base64 body decoded. */
interface PemBlock {
  type: string;
  hasHeaders: boolean;
  der: Buffer;
}

/**
 * The first PEM block of `text` (Go's pem.Decode): undefined when there is none. A body that
 * is not base64 makes no block, as Go's decoder skips it.
 */
export function firstPemBlock(text: string): { block: PemBlock; rest: string } | undefined {
  const re = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const type = m[1] ?? '';
    const body = m[2] ?? '';
    const lines = body.split(/\r?\n/);
    const headerEnd = lines.findIndex((l) => l.trim() === '');
    const hasHeaders = lines.some((l) => /^[A-Za-z-]+:/.test(l));
    const b64 = (hasHeaders && headerEnd >= 0 ? lines.slice(headerEnd + 1) : lines)
      .join('')
      .replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) continue;
    return {
      block: { type, hasHeaders, der: Buffer.from(b64, 'base64') },
      rest: text.slice(m.index + m[0].length),
    };
  }
  return undefined;
}

/** spec.request as the API carries it: base64 of the PEM text ([]byte in JSON). */
export function decodeRequestField(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return Buffer.from(value, 'base64').toString('latin1');
}

/** The parsed request, or the field error naming spec.request. */
export async function checkRequest(
  value: unknown
): Promise<{ csr: x509.Pkcs10CertificateRequest } | { error: FieldError }> {
  if (value === undefined || value === null || value === '') {
    return { error: fieldRequired(requestPath, '') };
  }
  const pem = decodeRequestField(value);
  if (pem === undefined) {
    return { error: fieldInvalid(requestPath, value, 'must be base64-encoded PEM data') };
  }
  const first = firstPemBlock(pem);
  if (!first || first.block.type !== 'CERTIFICATE REQUEST') {
    return {
      error: fieldInvalid(
        requestPath,
        '<request data>',
        'PEM block type must be CERTIFICATE REQUEST'
      ),
    };
  }
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(first.block.der);
  } catch (err) {
    return {
      error: fieldInvalid(
        requestPath,
        '<request data>',
        `not a PKCS#10 certificate request: ${(err as Error).message}`
      ),
    };
  }
  let verified = false;
  try {
    verified = await csr.verify();
  } catch (err) {
    return {
      error: fieldInvalid(
        requestPath,
        '<request data>',
        `the request's signature cannot be checked: ${(err as Error).message}`
      ),
    };
  }
  if (!verified) {
    return {
      error: fieldInvalid(
        requestPath,
        '<request data>',
        "the request's signature does not verify against its public key"
      ),
    };
  }
  return { csr };
}
