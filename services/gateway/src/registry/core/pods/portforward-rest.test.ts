// pods/portforward's pure parts: the options of the query (upstream's parameter codec for
// PodPortForwardOptions), the agent URL (PortForwardLocation), and which WebSocket requests
// tunnel SPDY (wsstream.IsWebSocketRequestWithTunnelingProtocol).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  podPortForwardOptionsFrom,
  portForwardLocation,
  tunneledSpdyProtocols,
} from './portforward-rest.js';

test('PodPortForwardOptions: repeated ports; a port that is no int32 is 400 as the codec says', () => {
  assert.deepEqual(podPortForwardOptionsFrom(new URLSearchParams('ports=80&ports=8080')), {
    ports: [80, 8080],
  });
  assert.deepEqual(podPortForwardOptionsFrom(new URLSearchParams('')), { ports: [] });
  for (const bad of ['x', '1.5', '2147483648'])
    assert.throws(
      () => podPortForwardOptionsFrom(new URLSearchParams({ ports: bad })),
      (err: { status?: { code?: number; message?: string } }) =>
        err.status?.code === 400 &&
        err.status.message === `strconv.ParseInt: parsing "${bad}": invalid syntax`
    );
});

test('PortForwardLocation: /portForward/{namespace}/{pod} with each port as `port`', () => {
  const url = portForwardLocation({ hostname: '10.0.0.7', port: 10250 }, 'ns 1', 'web', {
    ports: [80, 443],
  });
  assert.equal(url.href, 'https://10.0.0.7:10250/portForward/ns%201/web?port=80&port=443');
  const v6 = portForwardLocation({ hostname: 'fd00::7', port: 10250 }, 'a', 'b', { ports: [] });
  assert.equal(v6.host, '[fd00::7]:10250');
});

test('tunnelled SPDY: only a WebSocket upgrade offering SPDY/3.1+<protocol>.k8s.io', () => {
  const req = (headers: Record<string, string>) => ({ headers });
  assert.deepEqual(
    tunneledSpdyProtocols(
      req({
        upgrade: 'websocket',
        'sec-websocket-protocol': 'SPDY/3.1+portforward.k8s.io, v4.channel.k8s.io',
      })
    ),
    ['portforward.k8s.io']
  );
  assert.deepEqual(
    tunneledSpdyProtocols(
      req({ upgrade: 'SPDY/3.1', 'x-stream-protocol-version': 'portforward.k8s.io' })
    ),
    [],
    'plain SPDY is relayed, not tunnelled'
  );
  assert.deepEqual(
    tunneledSpdyProtocols(
      req({ upgrade: 'websocket', 'sec-websocket-protocol': 'SPDY/3.1+other' })
    ),
    [],
    'not a Kubernetes protocol'
  );
});
