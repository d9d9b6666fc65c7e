import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { describeSuite, serviceAccountAdmissionOff } from './describe-suite.js';
import { freePort, portIsFree } from './free-port.js';
import type { ProcessSpec } from './process-spec.js';

/** The value of `--flag=` in a process's arguments. */
function flag(p: ProcessSpec | undefined, name: string): string | undefined {
  const prefix = `--${name}=`;
  return p?.args.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

describe('describeSuite', () => {
  it('gives the processes stage by stage, wired to each other', async () => {
    const home = '/tmp/orch-describe-test';
    const d = await describeSuite({
      home,
      gateways: [{}, { name: 'allow', authorizationMode: 'AlwaysAllow', args: ['--only-this=1'] }],
      storageReplicas: 2,
      args: { gateway: ['--every-gateway=1'], storage: ['--compaction-interval=5m'] },
      nodeFlags: { gateway: ['--cpu-prof'] },
    });
    assert.deepEqual(
      d.stages.map((s) => s.map((p) => p.name)),
      [
        ['etcd', 'nats'],
        ['storage-0', 'storage-1'],
        ['authorizer', 'admission'],
        ['gateway-0', 'allow'],
        ['certificates', 'controllers'],
      ]
    );
    const [[etcd, nats], storage, [authorizer, admission], gateways, [certificates, controllers]] =
      d.stages as [ProcessSpec[], ProcessSpec[], ProcessSpec[], ProcessSpec[], ProcessSpec[]];

    // Every port is distinct, and each client is given its server's address.
    const addresses = [
      d.etcdUrl,
      d.natsUrl,
      d.natsMonitorUrl,
      ...d.storage,
      d.authorizer,
      d.admission,
      d.certificates,
    ];
    const ports = [...addresses, ...d.gateways.map((g) => g.url)].map((u) =>
      Number(u.slice(u.lastIndexOf(':') + 1))
    );
    assert.equal(new Set(ports).size, ports.length);
    assert.ok(etcd?.args.includes(d.etcdUrl));
    assert.ok(nats?.ready.some((r) => r.kind === 'http' && r.url.startsWith(d.natsMonitorUrl)));
    for (const [i, s] of storage.entries()) {
      assert.equal(flag(s, 'etcd-servers'), d.etcdUrl);
      assert.equal(`127.0.0.1:${flag(s, 'secure-port')}`, d.storage[i]);
      assert.equal(flag(s, 'identity'), `storage-${i}`);
      assert.equal(s.args.at(-1), '--compaction-interval=5m', 'extra flags come last');
      assert.deepEqual(
        s.ready.map((r) => r.kind),
        ['grpc-health']
      );
    }
    assert.equal(flag(authorizer, 'storage-servers'), d.storage.join(','), 'every replica');
    assert.equal(flag(admission, 'storage-servers'), d.storage.join(','), 'every replica');
    assert.equal(flag(admission, 'nats-url'), d.natsUrl);
    assert.equal(`127.0.0.1:${flag(admission, 'secure-port')}`, d.admission);
    assert.ok(
      admission?.args[0]?.endsWith(join('services', 'admission', 'dist', 'main.bundle.js'))
    );
    for (const [i, g] of gateways.entries()) {
      assert.equal(
        flag(g, 'storage-servers'),
        [d.storage[i % 2], d.storage[(i + 1) % 2]].join(','),
        'every replica, the gateways spread over them by their first choice'
      );
      assert.equal(flag(g, 'authorizer-servers'), d.authorizer);
      assert.equal(flag(g, 'admission-servers'), d.admission);
      assert.equal(flag(g, 'certificates-servers'), d.certificates);
      assert.equal(flag(g, 'nats-url'), d.natsUrl);
      assert.equal(g.args[0], '--cpu-prof', 'Node flags before the entry point');
      assert.ok(g.args[1]?.endsWith(join('services', 'gateway', 'dist', 'main.bundle.js')));
      assert.ok(g.args.includes('--every-gateway=1'));
    }
    assert.equal(flag(gateways[0], 'authorization-mode'), 'RBAC');
    assert.equal(flag(gateways[1], 'authorization-mode'), 'AlwaysAllow');
    assert.deepEqual(gateways[1]?.args.slice(-2), ['--every-gateway=1', '--only-this=1']);
    assert.ok(!gateways[0]?.args.includes('--only-this=1'));

    // Kubeconfigs: admin per gateway, the controllers' own, all in home.
    assert.deepEqual(d.adminKubeconfigs, [
      join(home, 'admin.kubeconfig'),
      join(home, 'admin-1.kubeconfig'),
    ]);
    assert.equal(d.kubeconfigs['admin-1']?.server, d.gateways[1]?.url);
    assert.equal(d.kubeconfigs['controllers']?.server, d.gateways[0]?.url);
    assert.equal(d.kubeconfigs['controllers']?.cert, 'controllers');
    assert.equal(flag(controllers, 'kubeconfig'), d.kubeconfigs['controllers']?.path);
    // The certificates service: asks the authorizer, acts through gateway 0 as itself.
    assert.equal(`127.0.0.1:${flag(certificates, 'secure-port')}`, d.certificates);
    assert.equal(flag(certificates, 'authorizer-servers'), d.authorizer);
    assert.equal(flag(certificates, 'kubeconfig'), d.kubeconfigs['certificates']?.path);
    assert.equal(d.kubeconfigs['certificates']?.cert, 'certificates');
  });

  it('puts gateways on the given port and the next ones, and refuses a taken one', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as AddressInfo).port;
    try {
      await assert.rejects(
        describeSuite({ home: '/tmp/x', gatewayPort: port }),
        new RegExp(`127.0.0.1:${port} is already in use`)
      );
    } finally {
      await new Promise((r) => taken.close(r));
    }
    let first = await freePort();
    while (!(await portIsFree(first + 1))) first = await freePort();
    const d = await describeSuite({
      home: '/tmp/x',
      gatewayPort: first,
      gateways: 2,
      controllers: false,
    });
    assert.deepEqual(
      d.gateways.map((g) => [g.name, g.port]),
      [
        ['gateway-0', first],
        ['gateway-1', first + 1],
      ]
    );
    assert.deepEqual(
      d.stages.at(-1)?.map((p) => p.role),
      ['certificates'],
      'no controllers'
    );
    assert.equal(d.kubeconfigs['controllers'], undefined);
  });
});

describe('serviceAccountAdmissionOff: a suite without the service account controller', () => {
  const rows: { name: string; args: string[]; want: string[] }[] = [
    {
      name: 'no admission flag: ServiceAccount off',
      args: ['--x=1'],
      want: ['--disable-admission-plugins=ServiceAccount'],
    },
    {
      name: 'what the flags disable stays disabled',
      args: ['--disable-admission-plugins=LimitRanger, PodSecurity'],
      want: ['--disable-admission-plugins=LimitRanger,PodSecurity,ServiceAccount'],
    },
    {
      name: 'the last --disable-admission-plugins is the one that counts',
      args: ['--disable-admission-plugins=A', '--disable-admission-plugins=B'],
      want: ['--disable-admission-plugins=B,ServiceAccount'],
    },
    {
      name: 'flags that enable ServiceAccount keep it on',
      args: ['--enable-admission-plugins=AlwaysDeny,ServiceAccount'],
      want: [],
    },
    {
      name: 'flags that disable it already: nothing to add',
      args: ['--disable-admission-plugins=ServiceAccount'],
      want: [],
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(serviceAccountAdmissionOff(row.args), row.want));
  }

  it('describeSuite: gateways get it without the controllers, not with them', async () => {
    const gatewayArgs = async (controllers: boolean) => {
      const d = await describeSuite({
        home: '/tmp/orch-describe-sa',
        controllers,
        gateways: [{ args: ['--enable-admission-plugins=ServiceAccount'] }, {}],
        args: { gateway: ['--disable-admission-plugins=AlwaysDeny'] },
      });
      // the last of a flag wins
      const prefix = '--disable-admission-plugins=';
      return d.stages[3]!.map((g) =>
        g.args
          .filter((a) => a.startsWith(prefix))
          .at(-1)
          ?.slice(prefix.length)
      );
    };
    assert.deepEqual(await gatewayArgs(false), ['AlwaysDeny', 'AlwaysDeny,ServiceAccount']);
    assert.deepEqual(await gatewayArgs(true), ['AlwaysDeny', 'AlwaysDeny']);
  });
});
