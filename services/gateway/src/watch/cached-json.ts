// The JSON bytes of an object the watch cache holds, encoded once however many lists and watch
// events write it (upstream's cachingObject, kept for the object's life in the cache rather than
// for one event): the cache's objects are shared by every reader and never mutated, so their
// bytes cannot go stale. Without it a LIST of 5,000 objects from the cache stringified every one
// of them again, for each request, holding the gateway's event loop for tens of milliseconds.
// What it costs: the bytes, beside the object, for each object a list or a watch has written
// (the object itself, parsed, weighs several times more); they go with the object.
const bytes = new WeakMap<object, Buffer>();

/** `JSON.stringify(obj)` as UTF-8, the same bytes each time for the same (unchanging) object. */
export function cachedJson(obj: object): Buffer {
  let b = bytes.get(obj);
  if (!b) bytes.set(obj, (b = Buffer.from(JSON.stringify(obj))));
  return b;
}
