// The watch messages on NATS: a change forwarded as etcd gave it is the message the publisher
// would write by parsing its objects and writing them again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangeMessage } from './watch-message.js';
import { decodeWatchMessage, encodeChangeMessage, encodeWatchMessage } from './watch-message.js';

const object = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { resourceVersion: '12', name: 'a "quoted" name', namespace: 'default' },
  data: { ünïcode: 'line\nbreak', n: '1' },
};
const prevObject = { ...object, metadata: { ...object.metadata, resourceVersion: '9' } };
const bytes = (o: unknown) => Buffer.from(JSON.stringify(o));

for (const [name, m] of [
  [
    'ADDED, no object before',
    {
      type: 'ADDED',
      key: '/registry/core/configmaps/default/a',
      revision: 12,
      prevRevision: 0,
      epoch: 'e1',
      object,
    },
  ],
  [
    'MODIFIED with the object before, a key with quotes',
    {
      type: 'MODIFIED',
      key: '/registry/core/configmaps/default/a "b"',
      revision: 12,
      prevRevision: 9,
      epoch: 'e2',
      object,
      prevObject,
    },
  ],
] as [string, ChangeMessage][]) {
  test(`encodeChangeMessage, ${name}: the bytes encodeWatchMessage writes, decoded alike`, () => {
    const { object: o, prevObject: p, ...head } = m;
    const forwarded = encodeChangeMessage(head, bytes(o), p && bytes(p));
    assert.equal(forwarded.toString('utf8'), Buffer.from(encodeWatchMessage(m)).toString('utf8'));
    assert.deepEqual(decodeWatchMessage(forwarded), m);
  });
}
