/**
 * JSON patch (RFC 6902), the `application/json-patch+json` PATCH type, applied with the
 * `fast-json-patch` library. Operations are validated (shape, then paths against the object
 * as each one is applied); failures become `PatchError`s naming the operation.
 */
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { cloneJson } from './clone-json.js';
import { PatchError } from './patch-error.js';

/**
 * Bytes `copy` operations may duplicate in one patch (evanphx/json-patch's
 * AccumulatedCopySizeLimit): each copy can double the object, so 30 of them would need 2^30 times
 * its size (a bomb the fuzzing harness sends).
 */
export const maxJsonPatchCopyBytes = 3 * 1024 * 1024;

/** k8s `maxJSONPatchOperations`: more operations than this are refused outright. */
export const maxJsonPatchOperations = 10000;

/**
 * Applies `ops` to a copy of `target` and returns the result; neither input is mutated.
 * Throws `PatchError` when `ops` is not an array of valid operations, a path does not
 * resolve, or a `test` operation does not hold.
 */
export function applyJsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) {
    throw new PatchError('json patch must be an array of operations', {
      code: 'SEQUENCE_NOT_AN_ARRAY',
    });
  }
  if (ops.length > maxJsonPatchOperations) {
    throw new PatchError(
      `the allowed maximum operations in a json patch is ${maxJsonPatchOperations}, got: ${ops.length}`,
      { code: 'SEQUENCE_TOO_LONG' }
    );
  }
  ops.forEach((op: unknown, i) => {
    try {
      jsonpatch.validator(op as Operation, i);
    } catch (err) {
      throw toPatchError(err, op, i);
    }
    checkFromNotPrefixOfPath(op as Operation, i);
  });
  const operations = cloneJson(ops) as Operation[];
  let document: unknown = cloneJson(target);
  let copied = 0;
  operations.forEach((op, i) => {
    if (op.op === 'copy') {
      // An unresolvable "from" is left to the library's own error below.
      let value: unknown;
      try {
        value = jsonpatch.getValueByPointer(document, op.from) as unknown;
      } catch {
        value = undefined;
      }
      copied += Buffer.byteLength(JSON.stringify(value) ?? '');
      if (copied > maxJsonPatchCopyBytes) {
        throw new PatchError(
          `${describe(ops[i], i)}: unable to copy, would exceed the accumulated copy size limit ` +
            `of ${maxJsonPatchCopyBytes} bytes`,
          { code: 'COPY_SIZE_LIMIT', operationIndex: i }
        );
      }
    }
    try {
      document = jsonpatch.applyOperation(document, op, true, true, true, i).newDocument;
    } catch (err) {
      throw toPatchError(err, ops[i], i);
    }
    if (document === undefined) {
      // A root `move`/`copy` from a path that does not exist.
      throw new PatchError(`${describe(ops[i], i)}: the "from" path does not exist`, {
        code: 'OPERATION_FROM_UNRESOLVABLE',
        operationIndex: i,
      });
    }
  });
  return document;
}

/** RFC 6902 §4.4: a value cannot be moved into one of its own children. */
function checkFromNotPrefixOfPath(op: Operation, i: number): void {
  if (op.op === 'move' && op.path.startsWith(`${op.from}/`)) {
    throw new PatchError(`${describe(op, i)}: the "from" path may not be a prefix of "path"`, {
      code: 'OPERATION_FROM_PREFIX_OF_PATH',
      operationIndex: i,
    });
  }
}

function describe(op: unknown, i: number): string {
  if (typeof op === 'object' && op !== null && !Array.isArray(op)) {
    const { op: name, path } = op as { op?: unknown; path?: unknown };
    if (typeof name === 'string' && typeof path === 'string') {
      return `json patch operation ${i} (${name} ${JSON.stringify(path)})`;
    }
  }
  return `json patch operation ${i}`;
}

function abbreviate(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

function toPatchError(err: unknown, op: unknown, i: number): PatchError {
  if (err instanceof jsonpatch.JsonPatchError) {
    // The library's message continues with the operation and the whole document: keep line one.
    const summary = err.message.split('\n')[0] ?? err.name;
    const detail =
      err.name === 'TEST_OPERATION_FAILED'
        ? `test failed: the value at ${JSON.stringify((op as Operation).path)} is not equal to ${abbreviate((op as { value?: unknown }).value)}`
        : summary;
    return new PatchError(`${describe(op, i)}: ${detail}`, {
      code: err.name,
      operationIndex: i,
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new PatchError(`${describe(op, i)}: ${message}`, { operationIndex: i, cause: err });
}
