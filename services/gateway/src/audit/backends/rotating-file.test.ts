// Rotation as lumberjack's: a write past maxSize renames the file with a UTC timestamp, the
// oldest backups beyond maxBackups go, backups older than maxAge go, compress gzips the rest.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { legacyLine } from './legacy-format.js';
import { RotatingFile } from './rotating-file.js';

const mb = 1024 * 1024;
const fresh = () => mkdtempSync(join(tmpdir(), 'rotate-'));

test('rotates past maxSize and keeps maxBackups newest', () => {
  const dir = fresh();
  const f = new RotatingFile(join(dir, 'audit.log'), {
    maxSizeMb: 1,
    maxBackups: 2,
    maxAgeDays: 0,
    compress: false,
  });
  const line = `${'x'.repeat(mb / 2 - 1)}\n`;
  for (let i = 0; i < 9; i++) f.write(line); // two lines a file: five files, four rotations
  f.close();
  const files = readdirSync(dir).sort();
  assert.equal(files.length, 3, files.join(' '));
  assert.ok(files.includes('audit.log'));
  for (const b of files.filter((x) => x !== 'audit.log'))
    assert.match(b, /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/);
  assert.equal(readFileSync(join(dir, 'audit.log'), 'utf8'), line);
});

test('prunes by age and compresses the backups kept', () => {
  const dir = fresh();
  const old = join(dir, 'audit-2020-01-01T00-00-00.000.log');
  writeFileSync(old, 'old\n');
  utimesSync(old, new Date('2020-01-01'), new Date('2020-01-01'));
  const f = new RotatingFile(join(dir, 'audit.log'), {
    maxSizeMb: 0,
    maxBackups: 0,
    maxAgeDays: 7,
    compress: true,
  });
  f.write('first\n');
  f.rotate(new Date('2026-01-02T03:04:05.678Z'));
  f.write('second\n');
  f.close();
  assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-01-02T03-04-05.678.log.gz', 'audit.log']);
  const gz = readFileSync(join(dir, 'audit-2026-01-02T03-04-05.678.log.gz'));
  assert.equal(gunzipSync(gz).toString(), 'first\n');
  assert.equal(readFileSync(join(dir, 'audit.log'), 'utf8'), 'second\n');
});

test('legacy format: one line as upstream EventString', () => {
  assert.equal(
    legacyLine({
      kind: 'Event',
      apiVersion: 'audit.orch.io/v1',
      level: 'Metadata',
      auditID: 'id-1',
      stage: 'ResponseComplete',
      requestURI: '/api/v1/namespaces/a/pods',
      verb: 'list',
      user: { username: 'alice', groups: ['g1', 'system:authenticated'] },
      sourceIPs: ['10.0.0.1'],
      userAgent: 'kubectl',
      objectRef: { resource: 'pods', namespace: 'a' },
      responseStatus: { code: 200 },
      requestReceivedTimestamp: '2026-01-01T00:00:00.000Z',
      stageTimestamp: '2026-01-01T00:00:00.001Z',
    }),
    '2026-01-01T00:00:00.000Z AUDIT: id="id-1" stage="ResponseComplete" ip="10.0.0.1" method="list" user="alice" groups="\\"g1\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl" namespace="a" uri="/api/v1/namespaces/a/pods" response="200"'
  );
});
