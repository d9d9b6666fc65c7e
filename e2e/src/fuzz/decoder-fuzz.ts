// The harness on the parsers of untrusted bytes, without a server, at a high rate: the binary
// envelope and the schema-driven protobuf decoder, and the JSON duplicate-key scanner.
// Properties: a decoder answers a value or its own error (EnvelopeError, SyntaxError), never
// another exception; valid input round-trips; the scanner reports exactly the duplicates made.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  EnvelopeError,
  canEncode,
  decodeEnvelope,
  encodeEnvelope,
} from '@orch/apimachinery/protobuf';
import { parseApiVersion } from '@orch/apimachinery/schema';
import {
  builtinSchemaModel,
  decodeMessage,
  parseJsonStrict,
} from '@orch/apimachinery/schema-model';
import type { MessageSchema } from '@orch/apimachinery/schema-model';
import { realisticObjects } from '@orch/apimachinery/testdata';

const encodable = Object.values(realisticObjects).filter((o) => canEncode(o));
const envelopes = encodable.map((o) => encodeEnvelope(o));
const magic = Buffer.from([0x6b, 0x38, 0x73, 0]);

/** Random and mutated envelopes: decodeEnvelope answers an object or an EnvelopeError. */
export const envelopeProperty = fc.property(
  fc.oneof(
    fc.uint8Array({ maxLength: 400 }),
    fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.concat([magic, b])),
    fc
      .tuple(
        fc.nat(envelopes.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 6 })
      )
      .map(([i, flips]) => {
        const b = Buffer.from(envelopes[i] ?? []);
        for (const [at, v] of flips) b[4 + (at % Math.max(1, b.length - 4))] = v;
        return b;
      }),
    fc.tuple(fc.nat(envelopes.length - 1), fc.nat()).map(([i, n]) => {
      const b = envelopes[i] ?? Buffer.alloc(0);
      return b.subarray(0, n % (b.length + 1));
    })
  ),
  (bytes) => {
    try {
      const obj = decodeEnvelope(bytes);
      assert.equal(typeof obj, 'object');
    } catch (err) {
      if (!(err instanceof EnvelopeError)) throw err;
    }
  }
);

/** Every realistic object round-trips through the envelope. */
export const envelopeRoundTripProperty = fc.property(fc.nat(encodable.length - 1), (i) => {
  const obj = encodable[i] as Record<string, unknown>;
  const back = decodeEnvelope(encodeEnvelope(obj));
  assert.deepEqual(decodeEnvelope(encodeEnvelope(back)), back, 'decode(encode) is stable');
});

const messages = encodable
  .map((o) => {
    const gv = parseApiVersion(String(o['apiVersion']));
    return gv && builtinSchemaModel().kind({ ...gv, kind: String(o['kind']) })?.message;
  })
  .filter((m): m is MessageSchema => m !== undefined);

/** The schema-driven decoder on raw bytes of every kind: a value or an Error, never a crash. */
export const decodeMessageProperty = fc.property(
  fc.nat(messages.length - 1),
  fc.uint8Array({ maxLength: 300 }),
  (i, bytes) => {
    try {
      decodeMessage(messages[i] as MessageSchema, bytes);
    } catch (err) {
      assert.ok(err instanceof Error, `threw a non-Error: ${String(err)}`);
      assert.ok(!(err instanceof RangeError && /call stack/.test(err.message)), err.message);
    }
  }
);

type JsonValue = unknown;

/** JSON text of `v` with the key `dup` repeated at the objects of `at`; returns text and paths. */
function withDuplicates(v: JsonValue, picks: Set<number>): { text: string; dups: string[] } {
  let n = 0;
  const dups: string[] = [];
  const keyPath = (parent: string, key: string): string =>
    /^[A-Za-z0-9_$-]+$/.test(key)
      ? parent === ''
        ? key
        : `${parent}.${key}`
      : `${parent}[${key}]`;
  const render = (x: JsonValue, path: string): string => {
    if (Array.isArray(x)) return `[${x.map((y, i) => render(y, `${path}[${i}]`)).join(',')}]`;
    if (typeof x === 'object' && x !== null) {
      const keys = Object.keys(x);
      const rec = x as Record<string, JsonValue>;
      const parts = keys.map((k) => `${JSON.stringify(k)}:${render(rec[k], keyPath(path, k))}`);
      const first = keys[0];
      if (first !== undefined && picks.has(n++)) {
        parts.push(`${JSON.stringify(first)}:0`);
        dups.push(keyPath(path, first));
      }
      return `{${parts.join(',')}}`;
    }
    return JSON.stringify(x) ?? 'null';
  };
  return { text: render(v, ''), dups };
}

/** The duplicate-key scanner finds exactly the duplicates written, at their paths. */
export const duplicateScannerProperty = fc.property(
  fc.jsonValue({ maxDepth: 5 }),
  fc.uniqueArray(fc.nat(20), { maxLength: 4 }),
  (value, picks) => {
    const { text, dups } = withDuplicates(value, new Set(picks));
    const r = parseJsonStrict(text);
    assert.deepEqual([...r.duplicates].sort(), [...dups].sort());
  }
);

/** Arbitrary text: parseJsonStrict answers or throws a SyntaxError, as JSON.parse does. */
export const scannerTextProperty = fc.property(
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.json({ maxDepth: 4 }).chain((j) => fc.nat(j.length).map((n) => j.slice(0, n))),
    fc.nat(200_000).map((d) => '['.repeat(d) + ']'.repeat(d))
  ),
  (text) => {
    try {
      parseJsonStrict(text);
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
    }
  }
);

export interface DecoderRun {
  seed: number;
  numRuns?: number;
  /** Stop after this many milliseconds (a long pass). */
  interruptAfterTimeLimit?: number;
}

/** Each decoder property as a check: throws the shrunk counterexample on failure. */
export const decoderProperties: Record<string, (run: DecoderRun) => void> = {
  envelope: (run) => fc.assert(envelopeProperty, run),
  envelopeRoundTrip: (run) => fc.assert(envelopeRoundTripProperty, run),
  decodeMessage: (run) => fc.assert(decodeMessageProperty, run),
  duplicateScanner: (run) => fc.assert(duplicateScannerProperty, run),
  scannerText: (run) => fc.assert(scannerTextProperty, run),
};
