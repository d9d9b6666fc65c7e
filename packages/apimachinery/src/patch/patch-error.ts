const patchErrorMarker = Symbol.for('@orch/apimachinery/PatchError');

/**
 * A patch that cannot be applied: malformed, or failing against the object (a `test`
 * operation that does not hold, a path that does not exist). The gateway answers it with
 * `422 Invalid` or `400 BadRequest`, as k8s does. `instanceof` works across copies of this
 * package, since it checks a registered symbol rather than the prototype chain.
 */
export class PatchError extends Error {
  override readonly name = 'PatchError';
  /** fast-json-patch's error code (e.g. `TEST_OPERATION_FAILED`), when the library raised it. */
  readonly code: string | undefined;
  /** Index of the offending operation in a JSON patch, when known. */
  readonly operationIndex: number | undefined;

  constructor(
    message: string,
    options: { code?: string; operationIndex?: number; cause?: unknown } = {}
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.operationIndex = options.operationIndex;
    Object.defineProperty(this, patchErrorMarker, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[patchErrorMarker] === true
    );
  }
}
