// JSON as the gateway writes it, and the bytes of the watch cache's objects kept with them.
//
// Go's json.Encoder, which upstream's serializer uses for every JSON answer (an object, a list,
// each watch event), escapes `<`, `>`, `&`, U+2028 and U+2029 inside strings; JSON.stringify
// does not. goJson makes the one into the other (the value is the same).
//
// cachedJson keeps an object's bytes while the cache holds it (upstream's cachingObject, for
// the object's life rather than for one event): the cache's objects are shared by every reader
// and never mutated, so their bytes cannot go stale. Without it a LIST of 5,000 objects from
// the cache stringified every one of them again, for each request, holding the gateway's event
// loop for tens of milliseconds. What it costs: the bytes, beside the object, for each object
// a list or a watch has written (the object itself, parsed, weighs several times more); they
// go with the object.
const htmlUnsafe = /[<>&\u2028\u2029]/g;
const goEscapes: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** JSON text as Go's encoder writes it (they can only be inside strings). */
export function goJson(text: string): string {
  return text.replace(htmlUnsafe, (c) => goEscapes[c] ?? c);
}

/** JSON bytes (JSON.stringify's) as Go's encoder writes them; the same Buffer when nothing changes. */
export function goJsonBytes(b: Buffer): Buffer {
  // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
  if (!(b.includes(0x3c) || b.includes(0x3e) || b.includes(0x26) || b.includes(0xe2))) return b;
  const text = b.toString('utf8');
  const escaped = goJson(text);
  return escaped === text ? b : Buffer.from(escaped);
}

/** An object's JSON as Go's encoder writes it, as UTF-8 bytes (encoded now, kept nowhere). */
export function goJsonOf(obj: unknown): Buffer {
  return Buffer.from(goJson(JSON.stringify(obj)));
}

const bytes = new WeakMap<object, Buffer>();

/** goJsonOf(obj), the same bytes each time for the same (unchanging) object. */
export function cachedJson(obj: object): Buffer {
  let b = bytes.get(obj);
  if (!b) bytes.set(obj, (b = goJsonOf(obj)));
  return b;
}
