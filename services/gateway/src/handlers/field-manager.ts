// What the write handlers need of the field manager (k8s handlers: scope.FieldManager,
// managerOrUserAgent, ValidateCreateOptions/UpdateOptions/PatchOptions on fieldManager and
// force): the field manager of a request's endpoint (stored kinds and their subresources; none
// for operations such as reviews), the manager's name, and the options checked as upstream
// (422 Invalid naming the options kind).
import {
  fieldForbidden,
  fieldInvalid,
  fieldRequired,
  fieldTooLong,
  newInvalid,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import { fieldManagerFor, managerOrUserAgent } from '../fieldmanager/index.js';
import type { FieldManager } from '../fieldmanager/index.js';
import type { RequestScope } from './scope.js';
import { queryOptionalBool } from '../request/query-params.js';

const fieldManagerMaxLength = 128;
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** The field manager of the endpoint, or undefined where the kind is not stored. */
export function fieldManagerOf(scope: RequestScope, create = false): FieldManager | undefined {
  const { def, info, rest } = scope;
  if (def.virtual) return undefined;
  // A create on a subresource makes another kind (serviceaccounts/token): not tracked.
  if (create && info.subresource) return undefined;
  const kind = rest.objectKind;
  if (kind.kind !== def.kind || kind.group !== def.group) return undefined;
  const hasStatus = def.subresources?.includes('status') ?? false;
  return fieldManagerFor(
    { group: kind.group, version: kind.version, kind: kind.kind },
    info.subresource,
    hasStatus,
    def.customResource
  );
}

/** k8s ValidateFieldManager. */
function validateFieldManager(manager: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager) > fieldManagerMaxLength)
    errs.push(fieldTooLong('fieldManager', fieldManagerMaxLength));
  let at = 0;
  for (const ch of manager) {
    if (!printable.test(ch)) {
      const u = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
      errs.push(
        fieldInvalid('fieldManager', manager, `invalid character ${u} (at position ${at})`)
      );
    }
    at += Buffer.byteLength(ch);
  }
  return errs;
}

export interface WriteManagerOptions {
  /** The manager to record: fieldManager, else the user agent's program name. */
  manager: string;
  /** force=true (apply only). */
  force: boolean;
}

/**
 * fieldManager and force of a write, checked as upstream: the name printable and at most 128
 * bytes, required for apply; force only on apply (true or false).
 */
export function parseWriteManager(
  scope: RequestScope,
  optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  apply = false
): WriteManagerOptions {
  const name = scope.query.get('fieldManager') ?? '';
  // force is a *bool option (Convert_Slice_string_To_Pointer_bool): `?force`, `1`, `True` force.
  const force = queryOptionalBool(scope.query, 'force');
  const errs: FieldError[] = [];
  if (apply && name === '') errs.push(fieldRequired('fieldManager', 'is required for apply patch'));
  if (!apply && force !== undefined && optionsKind === 'PatchOptions')
    errs.push(fieldForbidden('force', 'may not be specified for non-apply patch'));
  errs.push(...validateFieldManager(name));
  if (errs.length > 0) throw newInvalid({ group: 'meta.orch.io', kind: optionsKind }, '', errs);
  const userAgent = scope.req.headers['user-agent'] ?? '';
  return { manager: managerOrUserAgent(name, userAgent), force: force === true };
}
