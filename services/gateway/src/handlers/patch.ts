// PATCH (k8s handlers/patch.go): JSON merge patch (RFC 7386), JSON patch (RFC 6902), strategic
// merge patch and server-side apply (application/apply-patch+yaml, YAML or JSON), applied to the
// current object inside the update loop, so a lost race re-applies the patch to the newer
// object; the result is field-checked and defaulted like a PUT body. Every patch records
// managedFields: an Update entry for the patch types, the applier's Apply entry for apply. An
// apply creates a missing object (which needs `create` permission too); conflicts are 409.
import type { HttpResponse } from '../http/handler.js';
import {
  newBadRequest,
  newNotFound,
  newRequestEntityTooLarge,
  newUnprocessableEntity,
  newUnsupportedMediaType,
} from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  PatchError,
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  maxJsonPatchOperations,
} from '@orch/apimachinery/patch';
import { builtinSchemaModel } from '@orch/apimachinery/schema-model';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { Patcher } from '../registry/rest.js';
import { addWarning } from '../request/context.js';
import {
  checkFields,
  decodeObject,
  defaultObject,
  parseBodyStrict,
  parseFieldValidation,
  readBody,
} from './decode.js';
import { fieldManagerOf, parseWriteManager } from './field-manager.js';
import { parseDryRun } from './list-options.js';
import {
  admittedUpdate,
  authorizedCreateValidationFor,
  contextOf,
  namespaceOf,
  negotiateBeforeWrite,
  validationFor,
} from './scope.js';
import type { RequestScope } from './scope.js';

const applyPatchType = 'application/apply-patch+yaml';
const patchTypes = [
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  applyPatchType,
];

export async function patchResource(
  scope: RequestScope<Patcher>,
  res: HttpResponse
): Promise<void> {
  const kind = scope.rest.objectKind;
  const groupResource = { group: scope.def.group, resource: scope.def.resource };
  negotiateBeforeWrite(scope);
  const contentType =
    (scope.req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  // Strategic merge patch needs the kind's merge markers (a kind without schema answers 415);
  // apply works on every kind (without a schema every list is atomic).
  const gvk = { group: kind.group, version: kind.version, kind: kind.kind };
  const schema = builtinSchemaModel().kind(gvk)?.message;
  const accepted = schema ? patchTypes : patchTypes.filter((t) => !t.includes('strategic'));
  if (!accepted.includes(contentType)) throw newUnsupportedMediaType(contentType, accepted);
  const isApply = contentType === applyPatchType;
  const dryRun = parseDryRun(scope.query);
  const mode = parseFieldValidation(scope.query);
  const { manager, force } = parseWriteManager(scope, 'PatchOptions', isApply);
  const fm = fieldManagerOf(scope);
  if (isApply && !fm) throw newUnsupportedMediaType(contentType, accepted.slice(0, -1));
  const body = readBody(scope.req);
  const { value: patch, duplicates } = isApply
    ? parseApplyBody(body)
    : parseBodyStrict(body, 'application/json');
  // The patched object is field-checked on every try of the update loop; warnings are sent once.
  const warnings = new Set<string>();
  // As upstream: more operations than maxJSONPatchOperations is 413, before anything is read.
  const isJsonPatch = contentType === 'application/json-patch+json';
  if (isJsonPatch && Array.isArray(patch) && patch.length > maxJsonPatchOperations) {
    throw newRequestEntityTooLarge(
      `The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, ` +
        `got ${patch.length}`
    );
  }
  if (!isJsonPatch && (typeof patch !== 'object' || patch === null || Array.isArray(patch))) {
    throw newBadRequest(
      isApply
        ? 'an apply patch must be a YAML or JSON object'
        : 'a merge patch must be a JSON object'
    );
  }
  const ns = namespaceOf(scope);
  const name = scope.info.name;
  const result = await scope.rest.update(
    contextOf(scope),
    name,
    admittedUpdate(
      scope,
      (current) => {
        if (!current && !isApply) throw newNotFound(groupResource, name);
        let patched: unknown;
        if (isApply && fm) {
          const applied = structuredClone(patch) as ApiObject;
          // As upstream's unstructured accessor: an apply without metadata has empty metadata
          // (the live object's name and the rest stay); metadata that is not an object is refused.
          const meta: unknown = applied.metadata;
          if (meta === undefined) applied.metadata = {};
          else if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
            throw newBadRequest('metadata of an apply patch must be an object');
          patched = fm.apply(current, applied, manager, force);
        } else {
          try {
            patched = isJsonPatch
              ? applyJsonPatch(current, patch)
              : contentType === 'application/strategic-merge-patch+json' && schema
                ? applyStrategicMergePatch(current, patch, schema)
                : applyMergePatch(current, patch);
          } catch (err) {
            if (err instanceof PatchError) {
              // As upstream: a patch that does not apply is 422 with the reason as a fieldless cause.
              throw newUnprocessableEntity(err.message);
            }
            throw err;
          }
        }
        const obj = decodeObject(patched, kind, { namespace: ns, name });
        checkFields(kind, obj, duplicates, mode, (w) => warnings.add(w));
        defaultObject(kind, obj);
        return !isApply && fm ? fm.update(current, obj, manager) : obj;
      },
      dryRun
    ),
    {
      dryRun,
      createValidation: isApply ? authorizedCreateValidationFor(scope, dryRun) : undefined,
      updateValidation: validationFor(scope, 'UPDATE', dryRun),
      warn: (w) => warnings.add(w),
      forceAllowCreate: isApply,
    }
  );
  for (const w of warnings) addWarning(scope.req, w);
  writeObjectNegotiated(scope.req, res, result.created ? 201 : 200, result.object);
}

/**
 * The body of an apply: YAML, of which JSON is a part (read as JSON when it is JSON, the faster
 * parser); malformed is 400. Either parser refuses a body nested past the limit before it
 * recurses (the JSON text scan, the YAML syntax-tree depth).
 */
function parseApplyBody(body: Buffer): { value: unknown; duplicates: string[] } {
  const first = body.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
  if (first === 0x7b) {
    try {
      return parseBodyStrict(body, 'application/json');
    } catch {
      // not JSON after all (or too deep as JSON text, which YAML measures as it reads): YAML decides
    }
  }
  return parseBodyStrict(body, 'application/yaml');
}
