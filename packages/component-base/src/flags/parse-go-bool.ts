// Go's strconv.ParseBool, as upstream's flags and query parameters read a boolean.

/** `true` for 1, t, T, TRUE, true, True; `false` for 0, f, F, FALSE, false, False; else undefined. */
export function parseGoBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/** parseGoBool, throwing on anything it refuses (for a flag's complete step). */
export function mustParseGoBool(text: string): boolean {
  const b = parseGoBool(text);
  if (b === undefined) throw new Error(`invalid boolean ${JSON.stringify(text)}`);
  return b;
}
