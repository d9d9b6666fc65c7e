// deploy/monitoring kept true against a running suite (the shared one with the controllers and
// the certificates service): every metric a dashboard's query names is exported by some process
// of the suite, read with the cluster PKI's monitoring certificate as Prometheus reads them, and
// both scrape configurations have a job for every kind of process.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { request } from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { before, after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

const monitoringDir = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../deploy/monitoring'
);

// PromQL's words that are not metric names: functions and aggregations are followed by `(`,
// these are not.
const keywords = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
]);

/** The metric names a PromQL expression reads. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // strings
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ''); // label lists
  const names = new Set<string>();
  for (const m of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = bare.slice(m.index + m[0].length).trimStart();
    if (after.startsWith('(') || keywords.has(m[0])) continue;
    names.add(m[0]);
  }
  return [...names];
}

interface Dashboard {
  title: string;
  panels: { title: string; targets: { expr: string }[] }[];
}

let suite: Suite;
let tls: { ca: Buffer; cert: Buffer; key: Buffer };

function scrape(base: string): Promise<{ code: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(new URL('/metrics', base), { ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolvePromise({ code: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() })
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** The series names a /metrics text declares (`# TYPE`), histograms' and summaries' parts too. */
function exported(text: string): string[] {
  const names: string[] = [];
  for (const [, name = '', type = ''] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.push(name);
    if (type === 'histogram') names.push(`${name}_bucket`, `${name}_sum`, `${name}_count`);
    if (type === 'summary') names.push(`${name}_sum`, `${name}_count`);
  }
  return names;
}

before(async () => {
  suite = await sharedSuite({ controllers: true });
  const m = suite.pki.file('monitoring');
  tls = {
    ca: await readFile(suite.pki.caFile),
    cert: await readFile(m.certFile),
    key: await readFile(m.keyFile),
  };
});

after(async () => {
  await suite?.stop();
});

describe('deploy/monitoring', () => {
  it('reads PromQL metric names', () => {
    assert.deepEqual(
      metricNames(
        'histogram_quantile(0.99, sum by (le, verb) (rate(a_bucket{code=~"5..", x="rate(y)"}[5m]))) / on (verb) b'
      ),
      ['a_bucket', 'b']
    );
  });

  it('every metric a dashboard names is exported by the running suite', async () => {
    const available = new Set<string>();
    for (const base of [...suite.gateways, ...Object.values(suite.operational)]) {
      const answer = await scrape(base);
      assert.equal(answer.code, 200, `${base}/metrics as system:monitoring: ${answer.body}`);
      for (const n of exported(answer.body)) available.add(n);
    }
    const files = (await readdir(join(monitoringDir, 'dashboards'))).filter((f) =>
      f.endsWith('.json')
    );
    assert.ok(files.length >= 5, 'the dashboards');
    const missing: string[] = [];
    let queries = 0;
    for (const file of files) {
      const d = JSON.parse(
        await readFile(join(monitoringDir, 'dashboards', file), 'utf8')
      ) as Dashboard;
      for (const panel of d.panels) {
        for (const { expr } of panel.targets) {
          queries++;
          const names = metricNames(expr);
          assert.ok(names.length > 0, `${file} "${panel.title}": ${expr}`);
          for (const n of names)
            if (!available.has(n)) missing.push(`${file} "${panel.title}": ${n}`);
        }
      }
    }
    assert.ok(queries >= 20, `${queries} queries`);
    assert.deepEqual(missing, []);
  });

  it('both scrape configurations have a job for every kind of process', async () => {
    const kinds = ['gateway', ...Object.keys(suite.operational)].sort();
    for (const file of ['prometheus-compose.yml', 'prometheus-kubernetes.yml']) {
      const config = parseYaml(await readFile(join(monitoringDir, file), 'utf8')) as {
        scrape_configs: { job_name: string; scheme: string; tls_config: { cert_file: string } }[];
      };
      assert.deepEqual(config.scrape_configs.map((j) => j.job_name).sort(), kinds, file);
      for (const job of config.scrape_configs) {
        assert.equal(job.scheme, 'https', `${file} ${job.job_name}`);
        assert.match(job.tls_config.cert_file, /\/monitoring\.crt$/, `${file} ${job.job_name}`);
      }
    }
  });
});
