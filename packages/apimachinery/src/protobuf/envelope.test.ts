import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects, realisticPod } from '../testdata/index.js';
import {
  EnvelopeError,
  FrameReader,
  canEncode,
  decodeEnvelope,
  decodeWatchFrame,
  encodeEnvelope,
  encodeWatchFrame,
  protobufMagic,
} from './envelope.js';

test('an envelope starts with the magic and holds typeMeta and raw, encoding and type unset', () => {
  const bytes = encodeEnvelope(realisticObjects['v1/ConfigMap']);
  assert.deepEqual([...bytes.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
  // Unknown field 1 (typeMeta) is a length-delimited message holding apiVersion (1) then kind (2).
  assert.equal(bytes[4], 0x0a);
  assert.deepEqual(decodeEnvelope(bytes), realisticObjects['v1/ConfigMap']);
});

test('every built-in kind round trips through the envelope', () => {
  for (const obj of Object.values(realisticObjects))
    assert.deepEqual(decodeEnvelope(encodeEnvelope(obj)), obj);
});

test('a list keeps its items, which get apiVersion and kind back', () => {
  const list = {
    apiVersion: 'v1',
    kind: 'PodList',
    metadata: { resourceVersion: '7' },
    items: [realisticPod],
  };
  assert.deepEqual(decodeEnvelope(encodeEnvelope(list)), list);
});

test('a wrong prefix, a truncated body and a kind without schema are rejected', () => {
  const good = encodeEnvelope(realisticObjects['v1/Namespace']);
  const wrong = Buffer.from(good);
  wrong[1] = 0x39;
  assert.throws(() => decodeEnvelope(wrong), EnvelopeError);
  assert.throws(() => decodeEnvelope(good.subarray(0, good.length - 5)), EnvelopeError);
  assert.throws(() => decodeEnvelope(Buffer.from('{"kind":"Pod"}')), EnvelopeError);
  assert.equal(canEncode({ apiVersion: 'example.com/v1', kind: 'Widget' }), false);
  assert.throws(
    () => encodeEnvelope({ apiVersion: 'example.com/v1', kind: 'Widget' }),
    EnvelopeError
  );
  assert.equal(canEncode(realisticPod), true);
  // A raw that is not a Namespace (bytes that are no valid protobuf) does not decode.
  const garbage = Buffer.concat([
    protobufMagic,
    Buffer.from([
      0x0a,
      0x0f,
      0x0a,
      0x02,
      0x76,
      0x31,
      0x12,
      0x09,
      ...Buffer.from('Namespace'),
      0x12,
      0x03,
      0x0a,
      0xff,
      0xff,
    ]),
  ]);
  assert.throws(() => decodeEnvelope(garbage), EnvelopeError);
});

test('watch frames: length-prefixed envelopes of WatchEvents holding envelopes', () => {
  const a = encodeWatchFrame('ADDED', realisticPod);
  const b = encodeWatchFrame('DELETED', realisticObjects['v1/ConfigMap']!);
  assert.equal(a.readUInt32BE(0), a.length - 4);
  const reader = new FrameReader();
  const all = Buffer.concat([a, b]);
  const frames = [
    ...reader.push(all.subarray(0, 10)),
    ...reader.push(all.subarray(10, a.length + 3)),
    ...reader.push(all.subarray(a.length + 3)),
  ];
  assert.equal(frames.length, 2);
  assert.equal(reader.remaining, 0);
  assert.deepEqual(decodeWatchFrame(frames[0]!), { type: 'ADDED', object: realisticPod });
  assert.deepEqual(decodeWatchFrame(frames[1]!), {
    type: 'DELETED',
    object: realisticObjects['v1/ConfigMap'],
  });
});
