// pods/log's pure parts, as upstream's LogREST and LogLocation: the query's PodLogOptions, their
// validation, the container chosen, the agent's URL, the Node's address and port.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { connectionInfo, defaultPreferredAddressTypes } from '../nodes/kubelet-client.js';
import { logLocation, podContainer, podLogOptionsFrom, validatePodLogOptions } from './log-rest.js';

const q = (s: string) => new URLSearchParams(s);
const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return `${err.code} ${err.message}`;
  }
  return 'no error';
};

describe('PodLogOptions from the query', () => {
  test('every option, bools as Go parses them', () => {
    assert.deepEqual(
      podLogOptionsFrom(
        q('container=c&follow=1&previous=True&timestamps=t&sinceSeconds=5&tailLines=3&limitBytes=9')
      ),
      {
        container: 'c',
        follow: true,
        previous: true,
        timestamps: true,
        sinceSeconds: 5,
        tailLines: 3,
        limitBytes: 9,
      }
    );
  });
  test('a bad integer or bool is a 400 with strconv’s message', () => {
    assert.equal(
      message(() => podLogOptionsFrom(q('tailLines=x'))),
      '400 strconv.ParseInt: parsing "x": invalid syntax'
    );
    assert.equal(
      message(() => podLogOptionsFrom(q('follow=yes'))),
      '400 strconv.ParseBool: parsing "yes": invalid syntax'
    );
  });
});

describe('validatePodLogOptions (k8s ValidatePodLogOptions)', () => {
  const base = podLogOptionsFrom(q(''));
  const rows: [string, Partial<typeof base>, string[]][] = [
    ['no options', {}, []],
    ['negative tailLines', { tailLines: -1 }, ['tailLines: must be greater than or equal to 0']],
    ['zero limitBytes', { limitBytes: 0 }, ['limitBytes: must be greater than 0']],
    ['zero sinceSeconds', { sinceSeconds: 0 }, ['sinceSeconds: must be greater than 0']],
    [
      'sinceSeconds with sinceTime',
      { sinceSeconds: 1, sinceTime: '2026-01-01T00:00:00Z' },
      [': at most one of `sinceTime` or `sinceSeconds` may be specified'],
    ],
  ];
  for (const [name, opts, want] of rows) {
    test(name, () => {
      const errs = validatePodLogOptions({ ...base, ...opts });
      assert.deepEqual(
        errs.map((e) => `${e.field}: ${e.message}`),
        want
      );
    });
  }
});

describe('the container (k8s ValidateContainer)', () => {
  const pod = (containers: string[], init: string[] = []): ApiObject => ({
    metadata: { name: 'p' },
    spec: {
      initContainers: init.map((name) => ({ name })),
      containers: containers.map((name) => ({ name })),
    },
  });
  test('the only container when none is named', () => {
    assert.equal(podContainer(pod(['c']), ''), 'c');
  });
  test('several: upstream’s message listing init containers first', () => {
    assert.equal(
      message(() => podContainer(pod(['a', 'b'], ['i']), '')),
      '400 a container name must be specified for pod p, choose one of: [i a b]'
    );
  });
  test('none', () => {
    assert.equal(
      message(() => podContainer(pod([]), '')),
      '400 a container name must be specified for pod p'
    );
  });
  test('an init container may be named; an unknown one is refused', () => {
    assert.equal(podContainer(pod(['a'], ['i']), 'i'), 'i');
    assert.equal(
      message(() => podContainer(pod(['a']), 'x')),
      '400 container x is not valid for pod p'
    );
  });
});

describe('where the agent is', () => {
  const node = (addresses: [string, string][], port?: number): ApiObject => ({
    metadata: { name: 'n' },
    status: {
      addresses: addresses.map(([type, address]) => ({ type, address })),
      ...(port === undefined ? {} : { daemonEndpoints: { kubeletEndpoint: { Port: port } } }),
    },
  });
  test('the first preferred type with an address, the status port or 10250', () => {
    const n = node(
      [
        ['ExternalIP', '192.0.2.1'],
        ['InternalIP', '10.0.0.1'],
      ],
      10255
    );
    assert.deepEqual(connectionInfo(n, defaultPreferredAddressTypes), {
      scheme: 'https',
      hostname: '10.0.0.1',
      port: 10255,
    });
    assert.equal(connectionInfo(n, ['ExternalIP']).hostname, '192.0.2.1');
    assert.equal(connectionInfo(node([['Hostname', 'h']]), ['Hostname']).port, 10250);
  });
  test('no address of a preferred type: upstream’s NoMatchError', () => {
    assert.equal(
      message(() => connectionInfo(node([['ExternalIP', '192.0.2.1']]), ['InternalIP'])),
      '500 no preferred addresses found; known addresses: [{ExternalIP 192.0.2.1}]'
    );
  });
  test('the containerLogs URL carries the options as the kubelet reads them', () => {
    const url = logLocation('::1', 10250, 'ns', 'p', 'c', {
      container: 'c',
      follow: true,
      previous: false,
      timestamps: true,
      sinceTime: '2026-01-01T00:00:00Z',
      tailLines: 0,
    });
    assert.equal(
      url.href,
      'https://[::1]:10250/containerLogs/ns/p/c?follow=true&timestamps=true&sinceTime=2026-01-01T00%3A00%3A00Z&tailLines=0'
    );
  });
});
