// PATCH: JSON merge patch (RFC 7386) and JSON patch (RFC 6902) applied to the current object
// inside the update loop, so a lost race re-applies the patch to the newer object; the result is
// field-checked and defaulted like a PUT body.
import type { HttpResponse } from '../http/handler.js';
import {
  newBadRequest,
  newNotFound,
  newRequestEntityTooLarge,
  newUnprocessableEntity,
  newUnsupportedMediaType,
} from '@orch/apimachinery/errors';
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
import { parseDryRun } from './list-options.js';
import {
  admittedUpdate,
  contextOf,
  namespaceOf,
  negotiateBeforeWrite,
  validationFor,
} from './scope.js';
import type { RequestScope } from './scope.js';

const patchTypes = [
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
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
  // server-side apply is not served yet.
  const gvk = { group: kind.group, version: kind.version, kind: kind.kind };
  const schema = builtinSchemaModel().kind(gvk)?.message;
  const accepted = schema ? patchTypes : patchTypes.slice(0, 2);
  if (!accepted.includes(contentType)) throw newUnsupportedMediaType(contentType, accepted);
  const dryRun = parseDryRun(scope.query);
  const mode = parseFieldValidation(scope.query);
  const { value: patch, duplicates } = parseBodyStrict(readBody(scope.req), 'application/json');
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
    throw newBadRequest('a merge patch must be a JSON object');
  }
  const ns = namespaceOf(scope);
  const name = scope.info.name;
  const result = await scope.rest.update(
    contextOf(scope),
    name,
    admittedUpdate(
      scope,
      (current) => {
        if (!current) throw newNotFound(groupResource, name);
        let patched: unknown;
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
        const obj = decodeObject(patched, kind, { namespace: ns, name });
        checkFields(kind, obj, duplicates, mode, (w) => warnings.add(w));
        defaultObject(kind, obj);
        return obj;
      },
      dryRun
    ),
    {
      dryRun,
      updateValidation: validationFor(scope, 'UPDATE', dryRun),
      warn: (w) => warnings.add(w),
      forceAllowCreate: false,
    }
  );
  for (const w of warnings) addWarning(scope.req, w);
  writeObjectNegotiated(scope.req, res, 200, result.object);
}
