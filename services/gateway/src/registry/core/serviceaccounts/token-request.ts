// The TokenRequest subresource: POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token mints a
// service-account token (audiences, expirationSeconds, optional bound Pod or Secret).
import { isNotFound, newInvalid, newNotFound } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import { formatTimestamp, now } from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { CreateOptions, Getter, NamedCreater, ObjectKind, RestContext } from '../../rest.js';
import type { BoundObject, ServiceAccountTokenIssuer } from '../../../authn/service-account.js';

export const tokenRequestApiVersion = 'authentication.orch.io/v1';
const minExpirationSeconds = 600;
const defaultExpirationSeconds = 3600;

export interface TokenRequestDeps {
  issuer: ServiceAccountTokenIssuer;
  apiAudiences: string[];
  maxExpirationSeconds: number;
  serviceAccounts: Getter;
  pods: Getter | undefined;
  secrets: Getter | undefined;
}

interface TokenRequestSpec {
  audiences?: unknown;
  expirationSeconds?: unknown;
  boundObjectRef?: unknown;
}

/** serviceaccounts/<name>/token: create only, never stored (k8s serviceaccount TokenREST). */
export class TokenRequestRest implements NamedCreater {
  readonly objectKind: ObjectKind = {
    group: 'authentication.orch.io',
    version: 'v1',
    kind: 'TokenRequest',
    namespaced: true,
  };
  readonly #d: TokenRequestDeps;

  constructor(deps: TokenRequestDeps) {
    this.#d = deps;
  }

  async createNamed(
    ctx: RestContext,
    name: string,
    tr: ApiObject,
    opts: CreateOptions
  ): Promise<ApiObject> {
    const d = this.#d;
    const namespace = ctx.namespace ?? '';
    const spec = (tr['spec'] ?? {}) as TokenRequestSpec;
    const causes: FieldError[] = [];
    let audiences = d.apiAudiences;
    if (spec.audiences !== undefined) {
      if (
        !Array.isArray(spec.audiences) ||
        spec.audiences.some((a) => typeof a !== 'string' || a === '')
      ) {
        causes.push({
          type: 'FieldValueInvalid',
          field: 'spec.audiences',
          value: spec.audiences,
          message: 'must be a list of non-empty strings',
        });
      } else if (spec.audiences.length > 0) audiences = spec.audiences as string[];
    }
    let expirationSeconds = defaultExpirationSeconds;
    if (spec.expirationSeconds !== undefined) {
      if (
        typeof spec.expirationSeconds !== 'number' ||
        !Number.isInteger(spec.expirationSeconds) ||
        spec.expirationSeconds < minExpirationSeconds
      ) {
        causes.push({
          type: 'FieldValueInvalid',
          field: 'spec.expirationSeconds',
          value: spec.expirationSeconds,
          message: `may not specify a duration less than ${minExpirationSeconds} seconds`,
        });
      } else expirationSeconds = Math.min(spec.expirationSeconds, d.maxExpirationSeconds);
    }
    let boundRef: { kind: string; name: string; uid?: string; apiVersion?: string } | undefined;
    if (spec.boundObjectRef !== undefined && spec.boundObjectRef !== null) {
      const b = spec.boundObjectRef as Record<string, unknown>;
      if (b['kind'] !== 'Pod' && b['kind'] !== 'Secret')
        causes.push({
          type: 'FieldValueNotSupported',
          field: 'spec.boundObjectRef.kind',
          value: b['kind'],
          message: 'supported values: "Pod", "Secret"',
        });
      if (typeof b['name'] !== 'string' || !b['name'])
        causes.push({ type: 'FieldValueRequired', field: 'spec.boundObjectRef.name', message: '' });
      if (b['apiVersion'] !== undefined && b['apiVersion'] !== 'v1')
        causes.push({
          type: 'FieldValueNotSupported',
          field: 'spec.boundObjectRef.apiVersion',
          value: b['apiVersion'],
          message: 'supported values: "v1"',
        });
      boundRef = {
        kind: String(b['kind']),
        name: String(b['name'] ?? ''),
        ...(typeof b['uid'] === 'string' && b['uid'] ? { uid: b['uid'] } : {}),
      };
    }
    const gk = { group: 'authentication.orch.io', kind: 'TokenRequest' };
    if (causes.length > 0) throw newInvalid(gk, name, causes);
    await opts.createValidation?.(tr, undefined);

    const sa = await d.serviceAccounts.get(ctx, name, { consistency: 'MOST_RECENT' });
    let bound: BoundObject | undefined;
    if (boundRef) {
      const store = boundRef.kind === 'Pod' ? d.pods : d.secrets;
      const resource = boundRef.kind === 'Pod' ? 'pods' : 'secrets';
      let obj;
      try {
        if (!store) throw newNotFound({ group: '', resource }, boundRef.name);
        obj = await store.get(ctx, boundRef.name, { consistency: 'MOST_RECENT' });
      } catch (err) {
        if (isNotFound(err)) throw newNotFound({ group: '', resource }, boundRef.name);
        throw err;
      }
      if (boundRef.uid && obj.metadata.uid !== boundRef.uid) {
        throw newInvalid({ group: 'authentication.orch.io', kind: 'TokenRequest' }, name, [
          {
            type: 'FieldValueInvalid',
            field: 'spec.boundObjectRef.uid',
            value: boundRef.uid,
            message: `the ${resource} ${boundRef.name} has another uid`,
          },
        ]);
      }
      bound = {
        kind: boundRef.kind as 'Pod' | 'Secret',
        name: boundRef.name,
        uid: obj.metadata.uid ?? '',
      };
    }
    const uid = sa.metadata.uid ?? '';
    const minted = { namespace, name, uid, audiences, expirationSeconds, ...(bound && { bound }) };
    const { token, expiresAt } = await d.issuer.mint(minted);
    return {
      apiVersion: tokenRequestApiVersion,
      kind: 'TokenRequest',
      metadata: { name, namespace, creationTimestamp: now() },
      spec: {
        audiences,
        expirationSeconds,
        boundObjectRef: bound
          ? { kind: bound.kind, apiVersion: 'v1', name: bound.name, uid: bound.uid }
          : null,
      },
      status: { token, expirationTimestamp: formatTimestamp(expiresAt) },
    };
  }
}
