// One schema source, against a real suite: field validation levels, the binary envelope
// (decoded with the @orch/apimachinery/protobuf client and compared with the JSON answers),
// Tables and content negotiation, YAML bodies and pretty output.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import {
  FrameReader,
  decodeEnvelope,
  decodeWatchFrame,
  encodeEnvelope,
  protobufMagic,
} from '@orch/apimachinery/protobuf';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'schema';
const base = `/api/v1/namespaces/${ns}`;
type Json = Record<string, any>;
/** A list with its resourceVersion blanked: two reads a moment apart may see different ones (storage writes a checkpoint every second). */
const anyListVersion = (l: unknown): Json => ({
  ...(l as Json),
  metadata: { ...((l as Json)['metadata'] as Json), resourceVersion: '(any)' },
});

const pod = (name: string, extra: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'web' } },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1.27',
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        resources: { limits: { cpu: '100m', memory: '64Mi' } },
      },
    ],
    ...extra,
  },
});

const warningsOf = (h: Record<string, string | string[] | undefined>): string[] => {
  // Node's client joins repeated Warning headers with ", ".
  const w = h['warning'];
  const all = w === undefined ? [] : Array.isArray(w) ? w : [w];
  return all.flatMap((v) => v.split(/, (?=299 - )/));
};

before(async () => {
  suite = await sharedSuite();
  assert.equal(
    (
      await suite.request(0, 'POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
      })
    ).status,
    201
  );
});

after(async () => {
  await suite.stop();
});

test('fieldValidation Warn (default): one Warning header per unknown or duplicate field; unknown fields are not stored', async () => {
  const body = JSON.stringify(pod('warned', { foo: 1 })).replace(
    '"image":"nginx:1.27"',
    '"image":"nginx:1.27","imagee":"x","name":"web"'
  );
  const r = await suite.request(0, 'POST', `${base}/pods`, body);
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(warningsOf(r.headers).sort(), [
    '299 - "duplicate field \\"spec.containers[0].name\\""',
    '299 - "unknown field \\"spec.containers[0].imagee\\""',
    '299 - "unknown field \\"spec.foo\\""',
  ]);
  const got = (await suite.request(0, 'GET', `${base}/pods/warned`)).body as Json;
  assert.equal('foo' in got['spec'], false);
  assert.equal('imagee' in got['spec']['containers'][0], false);
});

test('fieldValidation Strict: 400 listing every unknown and duplicate field, nothing stored', async () => {
  const body = JSON.stringify(pod('strict', { foo: 1, bar: { x: 1 } })).replace(
    '"name":"strict"',
    '"name":"strict","name":"strict"'
  );
  const r = await suite.request(0, 'POST', `${base}/pods?fieldValidation=Strict`, body);
  assert.equal(r.status, 400);
  assert.equal((r.body as Json)['reason'], 'BadRequest');
  assert.equal(
    (r.body as Json)['message'],
    'strict decoding error: unknown field "spec.foo", unknown field "spec.bar", duplicate field "metadata.name"'
  );
  assert.equal((await suite.request(0, 'GET', `${base}/pods/strict`)).status, 404);
  assert.equal(
    (await suite.request(0, 'POST', `${base}/pods?fieldValidation=Bogus`, pod('bogus'))).status,
    400
  );
});

test('fieldValidation Ignore: silently dropped', async () => {
  const r = await suite.request(
    0,
    'POST',
    `${base}/pods?fieldValidation=Ignore`,
    pod('ignored', { foo: 1 })
  );
  assert.equal(r.status, 201);
  assert.deepEqual(warningsOf(r.headers), []);
  assert.equal('foo' in (r.body as Json)['spec'], false);
});

test('wrong types and missing required fields are 400 at every level, with an unknown field listed too', async () => {
  for (const level of ['Ignore', 'Warn', 'Strict']) {
    const bad = pod(`typed-${level.toLowerCase()}`, { foo: 1 });
    bad['spec']['containers'][0]['ports'][0]['containerPort'] = '80';
    delete bad['spec']['containers'][0]['name'];
    const r = await suite.request(0, 'POST', `${base}/pods?fieldValidation=${level}`, bad);
    assert.equal(r.status, 400, level);
    const msg = String((r.body as Json)['message']);
    assert.match(msg, /^Pod in version "v1" cannot be handled as a Pod: /);
    assert.match(
      msg,
      /spec\.containers\[0\]\.ports\[0\]\.containerPort: expected int32, got string/
    );
    assert.match(msg, /spec\.containers\[0\]\.name: Required value/);
    assert.match(msg, /unknown field "spec\.foo"/);
    assert.ok(
      ((r.body as Json)['details']['causes'] as Json[]).some(
        (c) => c['field'] === 'spec.containers[0].name' && c['reason'] === 'FieldValueRequired'
      )
    );
  }
  const noContainers = pod('nocontainers');
  delete noContainers['spec']['containers'];
  assert.equal((await suite.request(0, 'POST', `${base}/pods`, noContainers)).status, 400);
});

test('update and patch are field-checked too', async () => {
  const cur = (await suite.request(0, 'GET', `${base}/pods/warned`)).body as Json;
  cur['spec']['extra'] = true;
  const put = await suite.request(0, 'PUT', `${base}/pods/warned?fieldValidation=Strict`, cur);
  assert.equal(put.status, 400);
  assert.equal((put.body as Json)['message'], 'strict decoding error: unknown field "spec.extra"');
  const patch = await suite.request(
    0,
    'PATCH',
    `${base}/pods/warned`,
    { metadata: { labels: { b: '2' } }, spec: { nope: 1 } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(patch.status, 200);
  assert.deepEqual(warningsOf(patch.headers), ['299 - "unknown field \\"spec.nope\\""']);
  assert.equal('nope' in (patch.body as Json)['spec'], false);
  const badPatch = await suite.request(
    0,
    'PATCH',
    `${base}/pods/warned`,
    { spec: { nodeName: 7 } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(badPatch.status, 400);
});

test('binary envelope: get, list and create answers decode to the JSON answers', async () => {
  const pb = { Accept: 'application/vnd.orch.protobuf' };
  const json = (await suite.request(0, 'GET', `${base}/pods/warned`)).body;
  const bin = await suite.request(0, 'GET', `${base}/pods/warned`, undefined, pb);
  assert.equal(bin.status, 200);
  assert.equal(bin.headers['content-type'], 'application/vnd.orch.protobuf');
  assert.deepEqual([...bin.raw.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
  assert.deepEqual(decodeEnvelope(bin.raw), json);

  const jsonList = (await suite.request(0, 'GET', `${base}/pods`)).body;
  const binList = await suite.request(0, 'GET', `${base}/pods`, undefined, {
    Accept: 'application/vnd.kubernetes.protobuf',
  });
  assert.equal(binList.headers['content-type'], 'application/vnd.kubernetes.protobuf');
  assert.deepEqual(anyListVersion(decodeEnvelope(binList.raw)), anyListVersion(jsonList));

  // A binary request body, answered in binary.
  const created = await suite.request(
    0,
    'POST',
    `${base}/configmaps`,
    encodeEnvelope({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'bin' },
      data: { a: '1' },
    }),
    {
      'Content-Type': 'application/vnd.orch.protobuf',
      ...pb,
    }
  );
  assert.equal(created.status, 201, created.text);
  const obj = decodeEnvelope(created.raw);
  assert.deepEqual(obj['data'], { a: '1' });
  assert.deepEqual(obj, (await suite.request(0, 'GET', `${base}/configmaps/bin`)).body);
  // PUT takes an envelope body too.
  const replaced = await suite.request(
    0,
    'PUT',
    `${base}/configmaps/bin`,
    encodeEnvelope({ ...obj, data: { a: '2' } }),
    {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
    }
  );
  assert.equal(replaced.status, 200, replaced.text);
  assert.deepEqual((replaced.body as Json)['data'], { a: '2' });
  // Errors come back in the envelope too.
  const missing = await suite.request(0, 'GET', `${base}/pods/nope`, undefined, pb);
  assert.equal(missing.status, 404);
  assert.equal(decodeEnvelope(missing.raw)['reason'], 'NotFound');
});

test('binary bodies: a wrong magic, a truncated body or an undecodable raw is 400 and nothing is stored', async () => {
  const good = encodeEnvelope({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'badbin' },
    data: { a: '1' },
  });
  const wrongMagic = Buffer.from(good);
  wrongMagic[0] = 0x6c;
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
      ...Buffer.from('ConfigMap'),
      0x12,
      0x03,
      0x0a,
      0xff,
      0xff,
    ]),
  ]);
  for (const body of [wrongMagic, good.subarray(0, good.length - 3), garbage]) {
    const r = await suite.request(0, 'POST', `${base}/configmaps`, body, {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
    });
    assert.equal(r.status, 400, r.text);
  }
  assert.equal((await suite.request(0, 'GET', `${base}/configmaps/badbin`)).status, 404);
});

test('binary watch: length-prefixed frames decode to the JSON watch events', async () => {
  const admin = suite.pki.file('admin');
  const tls = {
    ca: readFileSync(suite.pki.caFile),
    cert: readFileSync(admin.certFile),
    key: readFileSync(admin.keyFile),
  };
  // Both watches start from the same consistent list, so they must see the same events.
  const rv = ((await suite.request(0, 'GET', `${base}/configmaps`)).body as Json)['metadata'][
    'resourceVersion'
  ] as string;
  const open = (
    accept: string
  ): Promise<{ events: () => Json[]; close: () => void; contentType: string }> =>
    new Promise((resolve, reject) => {
      const req = request(
        new URL(`${base}/configmaps?watch=1&resourceVersion=${rv}`, suite.gateways[0]),
        { headers: { Accept: accept }, ...tls },
        (res) => {
          const events: Json[] = [];
          const reader = new FrameReader();
          let text = '';
          res.on('data', (c: Buffer) => {
            if (accept === 'application/json') {
              text += c.toString();
              const lines = text.split('\n');
              text = lines.pop() ?? '';
              for (const l of lines) if (l) events.push(JSON.parse(l) as Json);
            } else {
              for (const f of reader.push(c)) events.push(decodeWatchFrame(f));
            }
          });
          resolve({
            events: () => events,
            close: () => req.destroy(),
            contentType: String(res.headers['content-type']),
          });
        }
      );
      req.on('error', (e) => (String(e).includes('socket hang up') ? undefined : reject(e)));
      req.end();
    });
  const bin = await open('application/vnd.orch.protobuf');
  const json = await open('application/json');
  assert.equal(bin.contentType, 'application/vnd.orch.protobuf;stream=watch');
  await suite.request(0, 'POST', `${base}/configmaps`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'watched' },
    data: { k: 'v' },
  });
  await suite.request(0, 'DELETE', `${base}/configmaps/watched`);
  for (let i = 0; i < 100 && (bin.events().length < 2 || json.events().length < 2); i++)
    await new Promise((r) => setTimeout(r, 50));
  bin.close();
  json.close();
  assert.deepEqual(
    bin.events().map((e) => e['type']),
    ['ADDED', 'DELETED']
  );
  assert.deepEqual(bin.events(), json.events());
  assert.equal(bin.events()[0]?.['object']['data']['k'], 'v');
});

test('tables: get and list with the kind columns, includeObject, and the meta.k8s.io form kubectl asks for', async () => {
  const table = 'application/json;as=Table;g=meta.orch.io;v=v1';
  const list = await suite.request(0, 'GET', `${base}/pods`, undefined, {
    Accept: `${table}, application/json`,
  });
  assert.equal(list.status, 200);
  const t = list.body as Json;
  assert.equal(t['kind'], 'Table');
  assert.equal(t['apiVersion'], 'meta.orch.io/v1');
  assert.deepEqual(
    (t['columnDefinitions'] as Json[]).slice(0, 5).map((c) => c['name']),
    ['Name', 'Ready', 'Status', 'Restarts', 'Age']
  );
  assert.ok(
    (t['columnDefinitions'] as Json[]).every(
      (c) => 'type' in c && 'format' in c && 'description' in c && 'priority' in c
    )
  );
  const row = (t['rows'] as Json[]).find((r) => r['cells'][0] === 'warned');
  assert.ok(row);
  assert.deepEqual(row['cells'].slice(1, 4), ['0/1', 'Pending', '0']);
  assert.equal(row['object']['kind'], 'PartialObjectMetadata');
  assert.equal(row['object']['metadata']['name'], 'warned');
  assert.ok(t['metadata']['resourceVersion']);

  const none = (
    await suite.request(0, 'GET', `${base}/pods/warned?includeObject=None`, undefined, {
      Accept: table,
    })
  ).body as Json;
  assert.equal(none['rows'].length, 1);
  assert.equal('object' in none['rows'][0], false);
  const full = (
    await suite.request(0, 'GET', `${base}/pods/warned?includeObject=Object`, undefined, {
      Accept: table,
    })
  ).body as Json;
  assert.equal(full['rows'][0]['object']['kind'], 'Pod');
  assert.equal(
    (
      await suite.request(0, 'GET', `${base}/pods/warned?includeObject=All`, undefined, {
        Accept: table,
      })
    ).status,
    400
  );

  const cms = (
    await suite.request(0, 'GET', `${base}/configmaps`, undefined, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    })
  ).body as Json;
  assert.equal(cms['apiVersion'], 'meta.k8s.io/v1');
  assert.deepEqual(
    (cms['columnDefinitions'] as Json[]).map((c) => c['name']),
    ['Name', 'Data', 'Age']
  );
  const nsTable = (
    await suite.request(0, 'GET', '/api/v1/namespaces', undefined, { Accept: table })
  ).body as Json;
  assert.deepEqual(
    (nsTable['columnDefinitions'] as Json[]).map((c) => c['name']),
    ['Name', 'Status', 'Age']
  );
});

test('content negotiation: Accept lists in order with fallbacks, nothing acceptable is 406', async () => {
  // A list is not answered as one PartialObjectMetadata (that is for get and watch).
  const r1 = await suite.request(0, 'GET', `${base}/pods`, undefined, {
    Accept: 'application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1, application/yaml',
  });
  assert.equal(r1.headers['content-type'], 'application/yaml');
  const r2 = await suite.request(0, 'GET', `${base}/pods`, undefined, {
    Accept: 'application/json;as=Table;g=meta.orch.io;v=v2, application/json',
  });
  assert.equal((r2.body as Json)['kind'], 'PodList');
  const r3 = await suite.request(0, 'GET', `${base}/pods`, undefined, {
    Accept: 'text/html, application/json;as=Table;g=example.com;v=v1',
  });
  assert.equal(r3.status, 406);
  // A watch answers Tables of one row, the column definitions in the first event only.
  const r4 = await suite.request(0, 'GET', `${base}/pods?watch=1&timeoutSeconds=1`, undefined, {
    Accept: 'application/json;as=Table;g=meta.orch.io;v=v1',
  });
  assert.equal(r4.status, 200);
  const events = r4.text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Json);
  assert.ok(events.length >= 2);
  assert.ok(
    events.every(
      (e) =>
        e['type'] === 'ADDED' && e['object']['kind'] === 'Table' && e['object']['rows'].length === 1
    )
  );
  assert.equal(events[0]!['object']['columnDefinitions'][1]['name'], 'Ready');
  assert.deepEqual(events[1]!['object']['columnDefinitions'], []);
  const r5 = await suite.request(0, 'GET', `${base}/pods?watch=1&timeoutSeconds=1`, undefined, {
    Accept: 'application/vnd.orch.protobuf;as=Table;g=meta.orch.io;v=v1',
  });
  assert.equal(r5.headers['content-type'], 'application/vnd.orch.protobuf;stream=watch');
  const frames = new FrameReader()
    .push(r5.raw)
    .map((f) => decodeWatchFrame(f) as { type: string; object: Json });
  assert.deepEqual(
    frames.map((e) => e.object['rows'][0]['cells'][0]),
    events.map((e) => e['object']['rows'][0]['cells'][0])
  );
  assert.equal(frames[0]!.object['columnDefinitions'][1]['name'], 'Ready');
});

test('virtual kinds decode like stored ones: TokenReview and SubjectAccessReview in the binary envelope, unknown fields under Strict', async () => {
  const pb = {
    'Content-Type': 'application/vnd.orch.protobuf',
    Accept: 'application/vnd.orch.protobuf',
  };
  assert.equal(
    (
      await suite.request(0, 'POST', `${base}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'reviewed' },
      })
    ).status,
    201
  );
  const minted = await suite.request(0, 'POST', `${base}/serviceaccounts/reviewed/token`, {
    apiVersion: 'authentication.orch.io/v1',
    kind: 'TokenRequest',
    spec: {},
  });
  assert.equal(minted.status, 201, minted.text);
  const token = String((minted.body as Json)['status']['token']);

  for (const v of ['v1']) {
    const tr = { apiVersion: `authentication.orch.io/${v}`, kind: 'TokenReview', spec: { token } };
    const r = await suite.request(
      0,
      'POST',
      `/apis/authentication.orch.io/${v}/tokenreviews`,
      encodeEnvelope(tr),
      pb
    );
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['content-type'], 'application/vnd.orch.protobuf');
    const answer = decodeEnvelope(r.raw) as Json;
    assert.equal(answer['apiVersion'], `authentication.orch.io/${v}`);
    assert.equal(answer['status']['authenticated'], true);
    assert.equal(answer['status']['user']['username'], `system:serviceaccount:${ns}:reviewed`);
    assert.ok((answer['status']['user']['groups'] as string[]).includes('system:serviceaccounts'));
  }

  const sar = {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      resourceAttributes: { namespace: ns, verb: 'get', resource: 'pods' },
      user: 'nobody',
      groups: ['system:masters'],
      extra: { scopes: ['a', 'b'] },
    },
  };
  const r = await suite.request(
    0,
    'POST',
    '/apis/authorization.orch.io/v1/subjectaccessreviews',
    encodeEnvelope(sar),
    pb
  );
  assert.equal(r.status, 201, r.text);
  const answer = decodeEnvelope(r.raw) as Json;
  assert.equal(answer['kind'], 'SubjectAccessReview');
  assert.deepEqual(answer['spec'], sar.spec);
  assert.equal(answer['status']['allowed'], true);
  // The same review in JSON answers the same.
  const json = await suite.request(
    0,
    'POST',
    '/apis/authorization.orch.io/v1/subjectaccessreviews',
    sar
  );
  assert.deepEqual(json.body, answer);

  // Field validation: Strict names the unknown field; Warn answers with a warning; wrong types are 400 at every level.
  const strict = await suite.request(
    0,
    'POST',
    '/apis/authentication.orch.io/v1/tokenreviews?fieldValidation=Strict',
    { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: { token, tokn: 'x' } }
  );
  assert.equal(strict.status, 400);
  assert.equal(
    (strict.body as Json)['message'],
    'strict decoding error: unknown field "spec.tokn"'
  );
  const strictSar = await suite.request(
    0,
    'POST',
    '/apis/authorization.orch.io/v1/subjectaccessreviews?fieldValidation=Strict',
    {
      ...sar,
      spec: { ...sar.spec, resourceAttributes: { verb: 'get', resource: 'pods', namepsace: ns } },
    }
  );
  assert.equal(strictSar.status, 400);
  assert.equal(
    (strictSar.body as Json)['message'],
    'strict decoding error: unknown field "spec.resourceAttributes.namepsace"'
  );
  const yamlStrict = await suite.request(
    0,
    'POST',
    '/apis/authorization.orch.io/v1/selfsubjectaccessreviews?fieldValidation=Strict',
    'apiVersion: authorization.orch.io/v1\nkind: SelfSubjectAccessReview\nspec:\n  nonResourceAttributes: {path: /healthz, verb: get}\n  user: me\n',
    { 'Content-Type': 'application/yaml' }
  );
  assert.equal(yamlStrict.status, 400);
  assert.equal(
    (yamlStrict.body as Json)['message'],
    'strict decoding error: unknown field "spec.user"'
  );
  const warned = await suite.request(
    0,
    'POST',
    '/apis/authorization.orch.io/v1/selfsubjectrulesreviews',
    {
      apiVersion: 'authorization.orch.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: ns, verbose: true },
    }
  );
  assert.equal(warned.status, 201, warned.text);
  assert.deepEqual(warningsOf(warned.headers), ['299 - "unknown field \\"spec.verbose\\""']);
  assert.equal((warned.body as Json)['status']['incomplete'], false);
  const typed = await suite.request(
    0,
    'POST',
    '/apis/authorization.orch.io/v1/subjectaccessreviews?fieldValidation=Ignore',
    { ...sar, spec: { ...sar.spec, groups: 'system:masters' } }
  );
  assert.equal(typed.status, 400);
  assert.match(String((typed.body as Json)['message']), /spec\.groups: expected array, got string/);
});

test('defaults from the schema: a port without protocol reads back TCP, the spec and container defaults are set, client values win', async () => {
  const bare = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'defaulted' },
    spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] },
  };
  const created = await suite.request(0, 'POST', `${base}/pods`, bare);
  assert.equal(created.status, 201, created.text);
  const got = (await suite.request(0, 'GET', `${base}/pods/defaulted`)).body as Json;
  assert.deepEqual(got['spec'], (created.body as Json)['spec']);
  const spec = got['spec'];
  assert.deepEqual(spec['containers'][0]['ports'], [{ containerPort: 80, protocol: 'TCP' }]);
  assert.deepEqual(
    [
      spec['restartPolicy'],
      spec['dnsPolicy'],
      spec['terminationGracePeriodSeconds'],
      spec['schedulerName'],
      spec['enableServiceLinks'],
    ],
    ['Always', 'ClusterFirst', 30, 'default-scheduler', true]
  );
  assert.deepEqual(spec['securityContext'], {});
  const c = spec['containers'][0];
  assert.deepEqual(
    [c['terminationMessagePath'], c['terminationMessagePolicy'], c['imagePullPolicy']],
    ['/dev/termination-log', 'File', 'Always']
  );

  // Dry run answers the defaulted object and stores nothing.
  const dry = await suite.request(0, 'POST', `${base}/pods?dryRun=All`, {
    ...bare,
    metadata: { name: 'dry-defaulted' },
  });
  assert.equal(dry.status, 201, dry.text);
  assert.equal((dry.body as Json)['spec']['containers'][0]['ports'][0]['protocol'], 'TCP');
  assert.equal((await suite.request(0, 'GET', `${base}/pods/dry-defaulted`)).status, 404);

  // What the client sets stays, zeros of pointer fields included.
  const own = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'own-values' },
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 0,
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          imagePullPolicy: 'Never',
          ports: [{ containerPort: 53, protocol: 'UDP' }],
        },
      ],
    },
  };
  const kept = (await suite.request(0, 'POST', `${base}/pods`, own)).body as Json;
  assert.deepEqual(
    [kept['spec']['restartPolicy'], kept['spec']['terminationGracePeriodSeconds']],
    ['Never', 0]
  );
  assert.deepEqual(
    [
      kept['spec']['containers'][0]['imagePullPolicy'],
      kept['spec']['containers'][0]['ports'][0]['protocol'],
    ],
    ['Never', 'UDP']
  );
});

test('defaults are idempotent: an unchanged PUT, the original manifest again, a patch keep generation and the defaults', async () => {
  const manifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'defaulted' },
    spec: {
      selector: { matchLabels: { app: 'd' } },
      template: {
        metadata: { labels: { app: 'd' } },
        spec: {
          containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }],
        },
      },
    },
  };
  const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
  const created = (await suite.request(0, 'POST', path, manifest)).body as Json;
  const spec = created['spec'];
  assert.deepEqual(
    [spec['replicas'], spec['revisionHistoryLimit'], spec['progressDeadlineSeconds']],
    [1, 10, 600]
  );
  assert.deepEqual(spec['strategy'], {
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
  });
  assert.equal(spec['template']['spec']['restartPolicy'], 'Always');
  assert.equal(spec['template']['spec']['containers'][0]['ports'][0]['protocol'], 'TCP');

  const unchanged = await suite.request(0, 'PUT', `${path}/defaulted`, created);
  assert.equal(unchanged.status, 200, unchanged.text);
  assert.equal(
    (unchanged.body as Json)['metadata']['resourceVersion'],
    created['metadata']['resourceVersion']
  );
  const again = await suite.request(0, 'PUT', `${path}/defaulted`, manifest);
  assert.equal(again.status, 200, again.text);
  assert.equal((again.body as Json)['metadata']['generation'], 1);
  assert.deepEqual((again.body as Json)['spec'], spec);
  const patched = await suite.request(
    0,
    'PATCH',
    `${path}/defaulted`,
    { metadata: { labels: { patched: 'yes' } } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(patched.status, 200, patched.text);
  assert.equal((patched.body as Json)['metadata']['generation'], 1);
  assert.deepEqual((patched.body as Json)['spec'], spec);

  // A port added by a strategic merge patch gets its protocol; a scale to zero stays zero.
  const added = await suite.request(
    0,
    'PATCH',
    `${path}/defaulted`,
    {
      spec: {
        replicas: 0,
        template: { spec: { containers: [{ name: 'web', ports: [{ containerPort: 8080 }] }] } },
      },
    },
    { 'Content-Type': 'application/strategic-merge-patch+json' }
  );
  assert.equal(added.status, 200, added.text);
  assert.equal((added.body as Json)['spec']['replicas'], 0);
  assert.deepEqual((added.body as Json)['spec']['template']['spec']['containers'][0]['ports'], [
    { containerPort: 80, protocol: 'TCP' },
    { containerPort: 8080, protocol: 'TCP' },
  ]);
  assert.equal((added.body as Json)['metadata']['generation'], 2);
});

test('tables show the defaulted protocol: a service port without one is 80/TCP, and its target port and type are set', async () => {
  const svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'defaulted' },
    spec: {
      selector: { app: 'web' },
      ports: [
        { name: 'http', port: 80 },
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 'dns' },
      ],
    },
  };
  const created = await suite.request(0, 'POST', `${base}/services`, svc);
  assert.equal(created.status, 201, created.text);
  const spec = (created.body as Json)['spec'];
  assert.deepEqual(spec['ports'], [
    { name: 'http', port: 80, protocol: 'TCP', targetPort: 80 },
    { name: 'dns', port: 53, protocol: 'UDP', targetPort: 'dns' },
  ]);
  assert.deepEqual(
    [spec['type'], spec['sessionAffinity'], spec['internalTrafficPolicy']],
    ['ClusterIP', 'None', 'Cluster']
  );
  const table = (
    await suite.request(0, 'GET', `${base}/services/defaulted`, undefined, {
      Accept: 'application/json;as=Table;g=meta.orch.io;v=v1',
    })
  ).body as Json;
  const columns = (table['columnDefinitions'] as Json[]).map((c) => c['name']);
  const row = table['rows'][0]['cells'] as unknown[];
  assert.equal(row[columns.indexOf('Type')], 'ClusterIP');
  assert.equal(row[columns.indexOf('Port(s)')], '80/TCP,53/UDP');
});

test('metadata only: PartialObjectMetadata for get and watch, PartialObjectMetadataList for list, in meta.orch.io or meta.k8s.io, JSON or binary', async () => {
  const as = (kind: string, group = 'meta.orch.io', media = 'application/json'): string =>
    `${media};as=${kind};g=${group};v=v1`;
  const pod = (await suite.request(0, 'GET', `${base}/pods/warned`)).body as Json;
  const one = await suite.request(0, 'GET', `${base}/pods/warned`, undefined, {
    Accept: `${as('PartialObjectMetadata')}, application/json`,
  });
  assert.equal(one.status, 200);
  assert.deepEqual(one.body, {
    kind: 'PartialObjectMetadata',
    apiVersion: 'meta.orch.io/v1',
    metadata: pod['metadata'],
  });
  const k8s = (
    await suite.request(0, 'GET', `${base}/pods/warned`, undefined, {
      Accept: as('PartialObjectMetadata', 'meta.k8s.io'),
    })
  ).body as Json;
  assert.equal(k8s['apiVersion'], 'meta.k8s.io/v1');

  const list = (await suite.request(0, 'GET', `${base}/pods`)).body as Json;
  const partial = (
    await suite.request(0, 'GET', `${base}/pods`, undefined, {
      Accept: as('PartialObjectMetadataList', 'meta.k8s.io'),
    })
  ).body as Json;
  assert.equal(partial['kind'], 'PartialObjectMetadataList');
  assert.equal(partial['apiVersion'], 'meta.k8s.io/v1');
  assert.deepEqual(
    partial['items'],
    (list['items'] as Json[]).map((p) => ({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: p['metadata'],
    }))
  );
  const page = (
    await suite.request(0, 'GET', `${base}/pods?limit=1`, undefined, {
      Accept: as('PartialObjectMetadataList'),
    })
  ).body as Json;
  assert.equal(page['items'].length, 1);
  assert.ok(page['metadata']['continue'] && page['metadata']['resourceVersion']);

  // The binary envelope (client-go's metadata client asks for it first), for a kind with or without a schema of its own.
  const bin = await suite.request(0, 'GET', `${base}/pods`, undefined, {
    Accept: `${as('PartialObjectMetadataList', 'meta.k8s.io', 'application/vnd.kubernetes.protobuf')}, application/json`,
  });
  assert.equal(bin.headers['content-type'], 'application/vnd.kubernetes.protobuf');
  assert.deepEqual(anyListVersion(decodeEnvelope(bin.raw)), anyListVersion(partial));
  const binOne = await suite.request(0, 'GET', `${base}/pods/warned`, undefined, {
    Accept: as('PartialObjectMetadata', 'meta.orch.io', 'application/vnd.orch.protobuf'),
  });
  assert.deepEqual(decodeEnvelope(binOne.raw), one.body);

  // The wrong form for the verb is skipped for the next entry, or 406 when none is left.
  assert.equal(
    (
      await suite.request(0, 'GET', `${base}/pods/warned`, undefined, {
        Accept: as('PartialObjectMetadataList'),
      })
    ).status,
    406
  );
  assert.equal(
    (
      (
        await suite.request(0, 'GET', `${base}/pods/warned`, undefined, {
          Accept: `${as('PartialObjectMetadataList')}, application/json`,
        })
      ).body as Json
    )['kind'],
    'Pod'
  );
  assert.equal(
    (
      await suite.request(0, 'GET', `${base}/pods/warned`, undefined, {
        Accept: as('PartialObjectMetadata', 'meta.orch.io').replace('v=v1', 'v=v2'),
      })
    ).status,
    406
  );

  // Watch: every event's object is the metadata, in JSON or in binary frames.
  const w = await suite.request(0, 'GET', `${base}/pods?watch=1&timeoutSeconds=1`, undefined, {
    Accept: as('PartialObjectMetadata', 'meta.k8s.io'),
  });
  assert.equal(w.status, 200);
  const events = w.text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Json);
  assert.equal(events.length, (list['items'] as Json[]).length);
  assert.deepEqual(
    events.map((e) => e['object']),
    partial['items']
  );
  const wb = await suite.request(0, 'GET', `${base}/pods?watch=1&timeoutSeconds=1`, undefined, {
    Accept: as('PartialObjectMetadata', 'meta.k8s.io', 'application/vnd.kubernetes.protobuf'),
  });
  assert.equal(wb.headers['content-type'], 'application/vnd.kubernetes.protobuf;stream=watch');
  assert.deepEqual(
    new FrameReader().push(wb.raw).map((f) => decodeWatchFrame(f)),
    events
  );
});

test('YAML request bodies and responses, pretty JSON', async () => {
  const yaml =
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  a: "1"\n  b: two\n';
  const r = await suite.request(0, 'POST', `${base}/configmaps`, yaml, {
    'Content-Type': 'application/yaml',
    Accept: 'application/yaml',
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.headers['content-type'], 'application/yaml');
  assert.match(r.text, /^apiVersion: v1\nkind: ConfigMap\n/);
  const dup = await suite.request(
    0,
    'POST',
    `${base}/configmaps?fieldValidation=Strict`,
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup-yaml\ndata:\n  a: "1"\n  a: "2"\n',
    { 'Content-Type': 'application/yaml' }
  );
  assert.equal(dup.status, 400);
  assert.match(String((dup.body as Json)['message']), /duplicate field "a"/);
  const pretty = await suite.request(0, 'GET', `${base}/configmaps/from-yaml?pretty=true`);
  assert.match(pretty.text, /^\{\n {2}"kind": "ConfigMap",|^\{\n {2}"apiVersion"/);
});

test('a plain JSON list (written from the stored bytes) equals the encoded one (pretty, YAML)', async () => {
  for (const name of ['raw-a', 'raw-b', 'raw-c']) {
    const r = await suite.request(0, 'POST', `${base}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, labels: { raw: 'list' } },
      data: { k: `ü "${name}"` },
    });
    assert.equal(r.status, 201, r.text);
  }
  const query = 'labelSelector=raw%3Dlist&limit=2';
  const plain = await suite.request(0, 'GET', `${base}/configmaps?${query}`);
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-type'], 'application/json');
  const list = plain.body as Json;
  const pretty = JSON.parse(
    (await suite.request(0, 'GET', `${base}/configmaps?${query}&pretty=true`)).text
  ) as Json;
  // Only the items: the list's resourceVersion moves on between the two reads.
  assert.deepEqual(
    [list['kind'], list['apiVersion'], list['items']],
    [pretty['kind'], pretty['apiVersion'], pretty['items']]
  );
  assert.equal(
    (list['metadata'] as Json)['remainingItemCount'],
    undefined,
    'omitted with a selector'
  );
  const items = (plain.body as Json)['items'] as Json[];
  assert.deepEqual(
    items.map((i) => [i['apiVersion'], i['kind'], (i['metadata'] as Json)['name']]),
    [
      ['v1', 'ConfigMap', 'raw-a'],
      ['v1', 'ConfigMap', 'raw-b'],
    ]
  );
  assert.match(String((items[0]!['metadata'] as Json)['resourceVersion']), /^\d+$/);
  const empty = await suite.request(0, 'GET', `${base}/configmaps?labelSelector=raw%3Dnone`);
  assert.deepEqual((empty.body as Json)['items'], []);
});
