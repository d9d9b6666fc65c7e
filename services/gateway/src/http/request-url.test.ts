// The request target parsed once per request: the filters, the installer and the response
// writers read the same URL; were req.url rewritten (node's IncomingMessage lets it be, though
// the chain's contract reads it only), the new target would be parsed, not the old one answered.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import type { HttpRequest } from './handler.js';
import { requestUrl } from './request-url.js';

const requestFor = (url: string): HttpRequest =>
  Object.assign(new Readable({ read() {} }), { url, method: 'GET', headers: {} }) as HttpRequest;

test('requestUrl parses a request target once, and again when req.url changes', () => {
  const req = requestFor('/api/v1/namespaces/a/pods?pretty=true&limit=5');
  const first = requestUrl(req);
  assert.equal(first.pathname, '/api/v1/namespaces/a/pods');
  assert.equal(first.searchParams.get('limit'), '5');
  assert.equal(requestUrl(req), first, 'the same URL for the same target');
  (req as { url?: string }).url = '/apis/apps/v1/deployments';
  const rewritten = requestUrl(req);
  assert.notEqual(rewritten, first);
  assert.equal(rewritten.pathname, '/apis/apps/v1/deployments');
  assert.equal(rewritten.search, '');
  assert.notEqual(
    requestUrl(requestFor('/api/v1/namespaces/a/pods?limit=5')),
    first,
    'per request'
  );
});
