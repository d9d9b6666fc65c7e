// The in-flight limit without a server: a request over the limit is 429 with Retry-After, as
// k8s WithMaxInFlightLimit answers it, and a slot freed by an answer is taken again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serveRequest } from '../handlers/verb-test-kit.js';
import { withMaxInFlight } from './with-max-in-flight.js';

test('Errors: "Retry-After header | ... says how many seconds to wait before retrying" on the 429 of a request over the in-flight limit', async () => {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const limited = withMaxInFlight(
    async (_req, res) => {
      await held;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    },
    1,
    1
  );
  const path = '/api/v1/namespaces/ns/configmaps';
  const first = serveRequest(limited, { method: 'GET', path });
  const over = await serveRequest(limited, { method: 'GET', path });
  assert.equal(over.code, 429);
  assert.equal(over.headers['retry-after'], '1');
  assert.equal(over.json()['reason'], 'TooManyRequests');
  assert.deepEqual(over.json()['details'], { retryAfterSeconds: 1 });
  // The mutating limit is its own: a write still gets in while the read holds its slot.
  const write = serveRequest(limited, { method: 'POST', path, body: {} });
  release();
  assert.equal((await first).code, 200);
  assert.equal((await write).code, 200);
  assert.equal((await serveRequest(limited, { method: 'GET', path })).code, 200, 'slot freed');
});
