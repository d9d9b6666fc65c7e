// What storageContract answers, against the storage service and the in-memory storage alike
// (written from upstream's and the service's semantics; a difference is a bug in one of them).
// Over 600 lines because it is data: every answer of the scenario written out whole.
import type { ContractStep } from './storage-contract.js';

export const storageContractTranscript: ContractStep[] = [
  {
    step: 'create a',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w1',
        name: 'a',
        namespace: 'ns1',
        uid: 'uid-a',
        labels: {
          tier: 'a',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'create a again',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'widgets.contract.orch.io "a" already exists',
        reason: 'AlreadyExists',
        code: 409,
        details: {
          name: 'a',
          group: 'contract.orch.io',
          kind: 'widgets',
        },
      },
    },
  },
  {
    step: 'get a',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w1',
        name: 'a',
        namespace: 'ns1',
        uid: 'uid-a',
        labels: {
          tier: 'a',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'update a at its revision',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w2',
        name: 'a',
        namespace: 'ns1',
        uid: 'uid-a',
        labels: {
          tier: 'a',
        },
      },
      spec: {
        size: 2,
      },
    },
  },
  {
    step: 'update a at a stale revision',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Operation cannot be fulfilled on widgets.contract.orch.io "a": the object has been modified; please apply your changes to the latest version and try again',
        reason: 'Conflict',
        code: 409,
        details: {
          name: 'a',
          group: 'contract.orch.io',
          kind: 'widgets',
        },
      },
    },
  },
  {
    step: 'update a with another uid',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Operation cannot be fulfilled on widgets.contract.orch.io "a": Precondition failed: UID in precondition: other, UID in object meta: uid-a',
        reason: 'Conflict',
        code: 409,
        details: {
          name: 'a',
          group: 'contract.orch.io',
          kind: 'widgets',
        },
      },
    },
  },
  {
    step: 'update a missing object',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'widgets.contract.orch.io "zz" not found',
        reason: 'NotFound',
        code: 404,
        details: {
          name: 'zz',
          group: 'contract.orch.io',
          kind: 'widgets',
        },
      },
    },
  },
  {
    step: 'create an object over the size limit',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Request entity too large: the object is 100153 bytes, over the 100000 bytes the store accepts',
        reason: 'RequestEntityTooLarge',
        code: 413,
      },
    },
  },
  {
    step: 'create an object that keeps a resourceVersion',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w3',
        name: 'b',
        namespace: 'ns1',
        uid: 'uid-b',
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'get a exactly at its first revision',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w1',
        name: 'a',
        namespace: 'ns1',
        uid: 'uid-a',
        labels: {
          tier: 'a',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'get a exactly at a future revision',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Internal error occurred: 11 OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision',
        reason: 'InternalError',
        code: 500,
        details: {
          causes: [
            {
              message: '11 OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision',
            },
          ],
        },
      },
    },
  },
  {
    step: 'get a missing object',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'widgets.contract.orch.io "zz" not found',
        reason: 'NotFound',
        code: 404,
        details: {
          name: 'zz',
          group: 'contract.orch.io',
          kind: 'widgets',
        },
      },
    },
  },
  {
    step: 'get a not older than a future revision',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Too large resource version: w2+1000, current: current',
        reason: 'Timeout',
        code: 504,
        details: {
          causes: [
            {
              reason: 'ResourceVersionTooLarge',
              message: 'Too large resource version',
            },
          ],
          retryAfterSeconds: 1,
        },
      },
    },
  },
  {
    step: 'create c',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w4',
        name: 'c',
        namespace: 'ns1',
        uid: 'uid-c',
        labels: {
          tier: 'b',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'create d',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w5',
        name: 'd',
        namespace: 'ns1',
        uid: 'uid-d',
        labels: {
          tier: 'b',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'create e',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w6',
        name: 'e',
        namespace: 'ns1',
        uid: 'uid-e',
        labels: {
          tier: 'b',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'create x in ns2',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w7',
        name: 'x',
        namespace: 'ns2',
        uid: 'uid-x',
        labels: {
          tier: 'b',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'list ns1, 2 a page',
    result: {
      items: ['w2 a', 'w3 b'],
      revision: 'current',
      more: true,
      remainingItemCount: 3,
    },
  },
  {
    step: 'create f after the snapshot',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w8',
        name: 'f',
        namespace: 'ns1',
        uid: 'uid-f',
        labels: {
          tier: 'b',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'list ns1, page 2',
    result: {
      items: ['w4 c', 'w5 d'],
      revision: 'page 1',
      more: true,
      remainingItemCount: 1,
    },
  },
  {
    step: 'list ns1, page 3',
    result: {
      items: ['w6 e'],
      revision: 'page 1',
      more: false,
      remainingItemCount: -1,
    },
  },
  {
    step: 'list every namespace',
    result: {
      items: ['w2 a', 'w3 b', 'w4 c', 'w5 d', 'w6 e', 'w8 f', 'w7 x'],
      revision: 'current',
      more: false,
      remainingItemCount: -1,
    },
  },
  {
    step: 'list ns1 by label, 1 a page',
    result: {
      items: ['w4 c'],
      revision: 'current',
      more: true,
      remainingItemCount: -1,
    },
  },
  {
    step: 'list ns1 by field',
    result: {
      items: ['w5 d'],
      revision: 'current',
      more: false,
      remainingItemCount: -1,
    },
  },
  {
    step: 'list ns1 exactly at a past revision',
    result: {
      items: ['w2 a'],
      revision: 'w2',
      more: false,
      remainingItemCount: -1,
    },
  },
  {
    step: 'list raw bytes',
    result: [
      '{"apiVersion":"contract.orch.io/v1","kind":"Widget","metadata":{"resourceVersion":"w2","name":"a","namespace":"ns1","uid":"uid-a","labels":{"tier":"a"}},"spec":{"size":2}}',
    ],
  },
  {
    step: 'list with a bad label selector',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          "unable to parse requirement: unable to parse label selector \"a in (\": found end of string at position 7, expected: a value, ',' or ')'",
        reason: 'BadRequest',
        code: 400,
      },
    },
  },
  {
    step: 'list with a bad continue token',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'continue key is not valid: not a token issued by this server',
        reason: 'BadRequest',
        code: 400,
      },
    },
  },
  {
    step: 'list exactly without a revision',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'an exact list needs a resourceVersion',
        reason: 'BadRequest',
        code: 400,
      },
    },
  },
  {
    step: 'list a prefix outside the registry',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'invalid key prefix "/elsewhere/": must start with /registry/ and end with /',
        reason: 'BadRequest',
        code: 400,
      },
    },
  },
  {
    step: 'get c',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w4',
        name: 'c',
        namespace: 'ns1',
        uid: 'uid-c',
        labels: {
          tier: 'b',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'delete c with another uid',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Operation cannot be fulfilled on widgets.contract.orch.io "c": Precondition failed: UID in precondition: other, UID in object meta: uid-c',
        reason: 'Conflict',
        code: 409,
        details: {
          name: 'c',
          group: 'contract.orch.io',
          kind: 'widgets',
        },
      },
    },
  },
  {
    step: 'delete c at a stale revision',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Operation cannot be fulfilled on widgets.contract.orch.io "c": the object has been modified; please apply your changes to the latest version and try again',
        reason: 'Conflict',
        code: 409,
        details: {
          name: 'c',
          group: 'contract.orch.io',
          kind: 'widgets',
        },
      },
    },
  },
  {
    step: 'delete c at its revision',
    result: {
      object: {
        apiVersion: 'contract.orch.io/v1',
        kind: 'Widget',
        metadata: {
          resourceVersion: 'w9',
          name: 'c',
          namespace: 'ns1',
          uid: 'uid-c',
          labels: {
            tier: 'b',
          },
        },
        spec: {
          size: 1,
        },
      },
      revision: 'w9',
    },
  },
  {
    step: 'delete c again',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'widgets.contract.orch.io "c" not found',
        reason: 'NotFound',
        code: 404,
        details: {
          name: 'c',
          group: 'contract.orch.io',
          kind: 'widgets',
        },
      },
    },
  },
  {
    step: 'create c again',
    result: {
      apiVersion: 'contract.orch.io/v1',
      kind: 'Widget',
      metadata: {
        resourceVersion: 'w10',
        name: 'c',
        namespace: 'ns1',
        uid: 'uid-c',
        labels: {
          tier: 'b',
        },
      },
      spec: {
        size: 1,
      },
    },
  },
  {
    step: 'history after the start',
    result: {
      until: 'current',
      events: [
        'ADDED ns1/a w1 a w1',
        'MODIFIED ns1/a w2 a w2 prev w1',
        'ADDED ns1/b w3 b w3',
        'ADDED ns1/c w4 c w4',
        'ADDED ns1/d w5 d w5',
        'ADDED ns1/e w6 e w6',
        'ADDED ns2/x w7 x w7',
        'ADDED ns1/f w8 f w8',
        'DELETED ns1/c w9 c w9 prev w4',
        'ADDED ns1/c w10 c w10',
      ],
    },
  },
  {
    step: 'history of a namespace',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'history is kept per type: "/registry/contract.orch.io/widgets/ns1/" is not /registry/<group>/<resource>/',
        reason: 'BadRequest',
        code: 400,
      },
    },
  },
  {
    step: 'list exactly at a compacted revision',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'too old resource version: w2',
        reason: 'Expired',
        code: 410,
      },
    },
  },
  {
    step: 'list with a continue token of a compacted revision',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
        reason: 'Expired',
        code: 410,
      },
    },
  },
  {
    step: 'get exactly at a compacted revision',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'The resourceVersion for the provided get is too old.',
        reason: 'Expired',
        code: 410,
      },
    },
  },
  {
    step: 'history after a compacted revision',
    result: {
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'too old resource version: w0 (w10)',
        reason: 'Expired',
        code: 410,
      },
    },
  },
  {
    step: 'history from the compaction on',
    result: 'current',
  },
];
