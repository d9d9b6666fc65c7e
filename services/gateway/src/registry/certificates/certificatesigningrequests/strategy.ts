// CertificateSigningRequests (upstream's pkg/registry/certificates/certificates/strategy.go):
// on create the requester's identity is written into spec (username, uid, groups, extra) and
// status starts empty; the main resource changes only metadata (spec and status carried over);
// /status (the signer) writes status.certificate and conditions other than Approved and Denied;
// /approval (the approver) writes only the Approved and Denied conditions. Condition timestamps
// are filled in as upstream's populateConditionTimestamps does.
import type { ApiObject } from '@orch/apimachinery/meta';
import type { RestContext } from '../../rest.js';
import { keepManagedFields } from '../../status-rest.js';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import {
  conditionsOf,
  validateCertificateSigningRequest,
  validateCertificateSigningRequestUpdate,
} from './validation.js';
import type { Condition } from './validation.js';

type Json = Record<string, unknown>;

const base = defaultStrategy({ hasStatus: true });

/** The condition types only /approval writes. */
const approvalTypes = new Set(['Approved', 'Denied']);

const specOf = (o: ApiObject): Json => (o['spec'] ??= {}) as Json;

/** Set when missing: lastUpdateTime now; lastTransitionTime kept from an old one of same type and status, else now. */
export function populateConditionTimestamps(
  obj: ApiObject,
  old: ApiObject,
  now = new Date()
): void {
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const c of conditionsOf(obj)) {
    if (!c['lastUpdateTime']) c['lastUpdateTime'] = stamp;
    if (!c['lastTransitionTime']) {
      const same = conditionsOf(old).find(
        (o) => o.type === c.type && o.status === c.status && o['lastTransitionTime']
      );
      c['lastTransitionTime'] = same?.['lastTransitionTime'] ?? stamp;
    }
  }
}

/** A status object with `conditions` (dropped when empty) and the rest of `status`. */
function withConditions(status: Json, conditions: Condition[]): Json {
  const { conditions: _c, ...rest } = status;
  return conditions.length > 0 ? { ...rest, conditions } : rest;
}

/** The main resource. */
export const certificateSigningRequestStrategy: Strategy = {
  ...base,
  allowCreateOnUpdate: false,
  nameRule: 'path-segment',
  prepareForCreate(obj: ApiObject, ctx?: RestContext) {
    const spec = specOf(obj);
    delete spec['username'];
    delete spec['uid'];
    delete spec['groups'];
    delete spec['extra'];
    const user = ctx?.user;
    if (user) {
      if (user.name) spec['username'] = user.name;
      if (user.uid) spec['uid'] = user.uid;
      if (user.groups.length > 0) spec['groups'] = [...user.groups];
      const extra = Object.entries(user.extra ?? {});
      if (extra.length > 0) spec['extra'] = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
    }
    // Nobody creates a request already approved or issued.
    delete obj['status'];
  },
  prepareForUpdate(obj, old) {
    obj['spec'] = structuredClone(old['spec']);
    if (old['status'] === undefined) delete obj['status'];
    else obj['status'] = structuredClone(old['status']);
  },
  validate: (obj) => validateCertificateSigningRequest(obj),
  validateUpdate: (obj, old) => validateCertificateSigningRequestUpdate(obj, old),
};

/** The whole object from `old` but status, with the write's managedFields (a subresource). */
function fromOld(obj: ApiObject, old: ApiObject): Json {
  const status = (obj['status'] ?? {}) as Json;
  const managedFields = obj.metadata?.managedFields;
  for (const k of Object.keys(obj)) delete obj[k];
  Object.assign(obj, structuredClone(old));
  keepManagedFields(obj, managedFields);
  return status;
}

/**
 * /status (upstream's csrStatusStrategy): status.certificate and the conditions but Approved
 * and Denied, which stay as stored (their instances preserved, upstream's
 * preserveConditionInstances). Spec and metadata stay as stored.
 */
export const certificateSigningRequestStatusStrategy: Strategy = {
  ...certificateSigningRequestStrategy,
  keepsGeneration: true,
  prepareForUpdate(obj, old) {
    const status = fromOld(obj, old);
    const kept = conditionsOf(old).filter((c) => approvalTypes.has(String(c.type)));
    const written = (
      Array.isArray(status['conditions']) ? (status['conditions'] as Condition[]) : []
    ).filter((c) => !approvalTypes.has(String(c.type)));
    obj['status'] = withConditions(status, [...kept, ...written]);
    if (Object.keys(obj['status'] as Json).length === 0) delete obj['status'];
    populateConditionTimestamps(obj, old);
  },
};

/**
 * /approval (upstream's csrApprovalStrategy): only the Approved and Denied conditions are
 * written; status.certificate and the other conditions stay as stored.
 */
export const certificateSigningRequestApprovalStrategy: Strategy = {
  ...certificateSigningRequestStrategy,
  keepsGeneration: true,
  prepareForUpdate(obj, old) {
    const status = fromOld(obj, old);
    const written = (
      Array.isArray(status['conditions']) ? (status['conditions'] as Condition[]) : []
    ).filter((c) => approvalTypes.has(String(c.type)));
    const kept = conditionsOf(old).filter((c) => !approvalTypes.has(String(c.type)));
    const oldStatus = (old['status'] ?? {}) as Json;
    obj['status'] = withConditions(structuredClone(oldStatus), [...written, ...kept]);
    if (Object.keys(obj['status'] as Json).length === 0) delete obj['status'];
    populateConditionTimestamps(obj, old);
  },
};
