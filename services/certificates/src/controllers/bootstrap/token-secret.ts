// Bootstrap token secrets as the bootstrap controllers read them (upstream
// k8s.io/cluster-bootstrap/token/api and util/secrets): type bootstrap.orch.io/token, named
// bootstrap-token-<id> in orch-system, fields in `data` (base64) or `stringData`.
type Obj = Record<string, unknown>;

export const bootstrapTokenSecretType = 'bootstrap.orch.io/token';
export const bootstrapTokenNamespace = 'orch-system';
export const bootstrapTokenSecretPrefix = 'bootstrap-token-';
export const clusterInfoNamespace = 'orch-public';
export const clusterInfoName = 'cluster-info';
export const kubeconfigKey = 'kubeconfig';
export const jwsSignatureKeyPrefix = 'jws-kubeconfig-';

const tokenIdShape = /^[a-z0-9]{6}$/;
const tokenSecretShape = /^[a-z0-9]{16}$/;

/** A field of the secret (upstream GetData). */
export function secretData(secret: Obj, key: string): string {
  const data = secret['data'] as Record<string, string> | undefined;
  if (data && typeof data[key] === 'string')
    return Buffer.from(data[key], 'base64').toString('utf8');
  const stringData = secret['stringData'] as Record<string, string> | undefined;
  return stringData && typeof stringData[key] === 'string' ? stringData[key] : '';
}

/** Whether the token has expired at `now`; an unparsable expiration counts as expired (upstream HasExpired). */
export function hasExpired(secret: Obj, now: Date): boolean {
  const expiration = secretData(secret, 'expiration');
  if (!expiration) return false;
  const at = Date.parse(expiration);
  return Number.isNaN(at) || at <= now.getTime();
}

/** Milliseconds until expiry; undefined without an expiration (upstream GetExpiration). */
export function expiresInMs(secret: Obj, now: Date): number | undefined {
  const expiration = secretData(secret, 'expiration');
  if (!expiration) return undefined;
  const at = Date.parse(expiration);
  return Number.isNaN(at) ? 0 : at - now.getTime();
}

export function isBootstrapTokenSecret(secret: Obj): boolean {
  return secret['type'] === bootstrapTokenSecretType;
}

/** The token id and secret when the secret is usable for signing (upstream validateSecretForSigning). */
export function tokenForSigning(
  secret: Obj,
  now: Date
): { id: string; secret: string } | undefined {
  if (!isBootstrapTokenSecret(secret)) return undefined;
  const name = ((secret['metadata'] ?? {}) as { name?: string }).name ?? '';
  if (!name.startsWith(bootstrapTokenSecretPrefix)) return undefined;
  const nameId = name.slice(bootstrapTokenSecretPrefix.length);
  const id = secretData(secret, 'token-id');
  const value = secretData(secret, 'token-secret');
  if (!tokenIdShape.test(id) || id !== nameId || !tokenSecretShape.test(value)) return undefined;
  if (hasExpired(secret, now)) return undefined;
  if (secretData(secret, 'usage-bootstrap-signing') !== 'true') return undefined;
  return { id, secret: value };
}
