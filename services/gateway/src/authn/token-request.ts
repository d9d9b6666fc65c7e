// The TokenRequest subresource: POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token mints a
// service-account token (audiences, expirationSeconds, optional bound Pod or Secret).
import { isNotFound, newBadRequest, newInvalid, newNotFound } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import { parseBody } from '../handlers/decode.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { VirtualHandler } from '../endpoints/installer.js';
import type { Store } from '../registry/store.js';
import type { BoundObject, ServiceAccountTokenIssuer } from './service-account.js';

export const tokenRequestApiVersion = 'authentication.orch.io/v1';
const minExpirationSeconds = 600;
const defaultExpirationSeconds = 3600;

export interface TokenRequestDeps {
  issuer: ServiceAccountTokenIssuer;
  apiAudiences: string[];
  maxExpirationSeconds: number;
  serviceAccounts: Store;
  pods: Store | undefined;
  secrets: Store | undefined;
}

const contentTypeOf = (h: string | undefined): string => (h ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? 'application/json';

export function tokenRequestHandler(d: TokenRequestDeps): VirtualHandler {
  return async (req, res, info, body) => {
    if (info.verb !== 'create') throw newBadRequest(`${req.method ?? ''} is not supported on serviceaccounts/token; POST a TokenRequest`);
    const raw = parseBody(body, contentTypeOf(req.headers['content-type']));
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw newBadRequest('the body must be a TokenRequest object');
    const tr = raw as { apiVersion?: unknown; kind?: unknown; spec?: { audiences?: unknown; expirationSeconds?: unknown; boundObjectRef?: unknown } };
    if (tr.apiVersion !== undefined && tr.apiVersion !== tokenRequestApiVersion) {
      throw newBadRequest(`the API version in the data (${String(tr.apiVersion)}) does not match the expected API version (${tokenRequestApiVersion})`);
    }
    if (tr.kind !== undefined && tr.kind !== 'TokenRequest') throw newBadRequest(`the kind in the data (${String(tr.kind)}) does not match the expected kind (TokenRequest)`);
    const spec = tr.spec ?? {};
    const causes: FieldError[] = [];
    let audiences = d.apiAudiences;
    if (spec.audiences !== undefined) {
      if (!Array.isArray(spec.audiences) || spec.audiences.some((a) => typeof a !== 'string' || a === '')) {
        causes.push({ type: 'FieldValueInvalid', field: 'spec.audiences', value: spec.audiences, message: 'must be a list of non-empty strings' });
      } else if (spec.audiences.length > 0) audiences = spec.audiences as string[];
    }
    let expirationSeconds = defaultExpirationSeconds;
    if (spec.expirationSeconds !== undefined) {
      if (typeof spec.expirationSeconds !== 'number' || !Number.isInteger(spec.expirationSeconds) || spec.expirationSeconds < minExpirationSeconds) {
        causes.push({ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', value: spec.expirationSeconds, message: `may not specify a duration less than ${minExpirationSeconds} seconds` });
      } else expirationSeconds = Math.min(spec.expirationSeconds, d.maxExpirationSeconds);
    }
    let boundRef: { kind: string; name: string; uid?: string; apiVersion?: string } | undefined;
    if (spec.boundObjectRef !== undefined && spec.boundObjectRef !== null) {
      const b = spec.boundObjectRef as Record<string, unknown>;
      if (b['kind'] !== 'Pod' && b['kind'] !== 'Secret') causes.push({ type: 'FieldValueNotSupported', field: 'spec.boundObjectRef.kind', value: b['kind'], message: 'supported values: "Pod", "Secret"' });
      if (typeof b['name'] !== 'string' || !b['name']) causes.push({ type: 'FieldValueRequired', field: 'spec.boundObjectRef.name', message: '' });
      if (b['apiVersion'] !== undefined && b['apiVersion'] !== 'v1') causes.push({ type: 'FieldValueNotSupported', field: 'spec.boundObjectRef.apiVersion', value: b['apiVersion'], message: 'supported values: "v1"' });
      boundRef = { kind: String(b['kind']), name: String(b['name'] ?? ''), ...(typeof b['uid'] === 'string' && b['uid'] ? { uid: b['uid'] } : {}) };
    }
    if (causes.length > 0) throw newInvalid({ group: 'authentication.orch.io', kind: 'TokenRequest' }, info.name, causes);

    const sa = await d.serviceAccounts.get(info.namespace, info.name, { consistency: 'MOST_RECENT' });
    let bound: BoundObject | undefined;
    if (boundRef) {
      const store = boundRef.kind === 'Pod' ? d.pods : d.secrets;
      const resource = boundRef.kind === 'Pod' ? 'pods' : 'secrets';
      let obj;
      try {
        if (!store) throw newNotFound({ group: '', resource }, boundRef.name);
        obj = await store.get(info.namespace, boundRef.name, { consistency: 'MOST_RECENT' });
      } catch (err) {
        if (isNotFound(err)) throw newNotFound({ group: '', resource }, boundRef.name);
        throw err;
      }
      if (boundRef.uid && obj.metadata.uid !== boundRef.uid) {
        throw newInvalid({ group: 'authentication.orch.io', kind: 'TokenRequest' }, info.name, [
          { type: 'FieldValueInvalid', field: 'spec.boundObjectRef.uid', value: boundRef.uid, message: `the ${resource} ${boundRef.name} has another uid` },
        ]);
      }
      bound = { kind: boundRef.kind as 'Pod' | 'Secret', name: boundRef.name, uid: obj.metadata.uid ?? '' };
    }
    const { token, expiresAt } = await d.issuer.mint({ namespace: info.namespace, name: info.name, uid: sa.metadata.uid ?? '', audiences, expirationSeconds, ...(bound ? { bound } : {}) });
    writeObjectNegotiated(req, res, 201, {
      apiVersion: tokenRequestApiVersion,
      kind: 'TokenRequest',
      metadata: { name: info.name, namespace: info.namespace, creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
      spec: { audiences, expirationSeconds, boundObjectRef: bound ? { kind: bound.kind, apiVersion: 'v1', name: bound.name, uid: bound.uid } : null },
      status: { token, expirationTimestamp: expiresAt.toISOString().replace(/\.\d+Z$/, 'Z') },
    });
  };
}
