const selectorParseErrorMarker = Symbol.for('@orch/apimachinery/SelectorParseError');

/**
 * A label or field selector that does not parse or names an invalid key or value. The
 * gateway turns it into a `BadRequest` Status. `instanceof` works across copies of this
 * package, since it checks a registered symbol rather than the prototype chain.
 */
export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
  /** The whole selector string (or a rendering of the selector object) that failed. */
  readonly selector: string;

  constructor(selector: string, message: string) {
    super(message);
    this.selector = selector;
    Object.defineProperty(this, selectorParseErrorMarker, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[selectorParseErrorMarker] === true
    );
  }
}
