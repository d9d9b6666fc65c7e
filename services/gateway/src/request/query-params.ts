// Query parameters read as upstream reads them into its option structs (k8s.io/apimachinery
// pkg/runtime/conversion.go Convert_Slice_string_To_*, the generated Convert_url_Values_To_v1_*
// and apiserver's negotiation isPrettyPrint), so every client library's spelling means the same:
// a scalar takes the first of repeated values, a list takes them all, unknown names are ignored.
import { newBadRequest } from '@orch/apimachinery/errors';
import { parseGoBool } from '@orch/component-base/flags';

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** A string option: the first value when repeated, undefined when absent (Convert_Slice_string_To_string). */
export function queryString(q: URLSearchParams, name: string): string | undefined {
  return q.get(name) ?? undefined;
}

/** A list option ([]string, as dryRun): every value in order. */
export function queryStrings(q: URLSearchParams, name: string): string[] {
  return q.getAll(name);
}

/**
 * A bool option (Convert_Slice_string_To_bool): absent, `0` or `false` in any case is false;
 * anything else, the empty value included (`?watch`), is true.
 */
export function queryBool(q: URLSearchParams, name: string): boolean {
  return queryOptionalBool(q, name) ?? false;
}

/** A *bool option (Convert_Slice_string_To_Pointer_bool): undefined when absent. */
export function queryOptionalBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/** Go's strconv.ParseInt(s, 10, 64), with its error text. */
export function parseInt64(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text)) {
    throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  }
  const n = BigInt(text);
  if (n < int64Min || n > int64Max) {
    throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  }
  return Number(n);
}

/** An int64 option (Convert_Slice_string_To_int64): 0 when absent, 400 when not an integer. */
export function queryInt64(q: URLSearchParams, name: string): number {
  return queryOptionalInt64(q, name) ?? 0;
}

/** A *int64 option (Convert_Slice_string_To_Pointer_int64): undefined when absent. */
export function queryOptionalInt64(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  return v === null ? undefined : parseInt64(v);
}

/**
 * Whether to indent JSON answers (apiserver negotiation isPrettyPrint): a non-empty `pretty`
 * decides as strconv.ParseBool (an unparsable value is false); otherwise the user agents of
 * browsers, curl and wget get indented answers.
 */
export function isPrettyPrint(q: URLSearchParams, userAgent: string | undefined): boolean {
  const v = q.get('pretty');
  if (v !== null && v !== '') return parseGoBool(v) ?? false;
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}
