// The gateway's removed-versions table against the spec's ("Removed API versions by release",
// its rows copied in removed-versions-spec-rows.ts): one entry per kind and old version of each
// row, with the row's release and replacement; and the 404's message names a replacement the
// gateway serves, or says that the spec's is not served.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '@orch/apimachinery/registry';
import { enabledResources } from './resource-config.js';
import {
  removedVersionMessage,
  removedVersionOf,
  removedVersions,
  replacementFor,
} from './removed-versions.js';
import type { RemovedVersion, ServedVersions } from './removed-versions.js';
import { specRemovedVersionRows } from './removed-versions-spec-rows.js';

interface SpecEntry {
  row: string;
  release: string;
  kind: string;
  groupVersion: string;
  replacement: string;
  since?: string;
}

/** The spec's rows, one entry per kind and old group version. */
function specEntries(): SpecEntry[] {
  const rows = specRemovedVersionRows.split('\n').filter((l) => l.startsWith('| '));
  return rows.flatMap((line) => {
    const [release, kinds, instead] = line
      .split('|')
      .slice(1, 4)
      .map((c) => c.trim()) as [string, string, string];
    const oldVersions = [...kinds.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const kindNames = kinds.slice(0, kinds.indexOf('`')).replace(/ in $/, '').trim().split(/,\s*/);
    const target = /^`([^`]+)`(?: \(([^)]+)\))?$/.exec(instead);
    return oldVersions.flatMap((groupVersion) =>
      kindNames.map((kind) => {
        const entry: SpecEntry = {
          row: line.slice(0, 60),
          release: release.replace(' (to be removed)', ''),
          kind,
          groupVersion,
          replacement: instead,
        };
        if (!target) return entry;
        // `.../v1beta3` is the old version's group; "(CSIDriver 1.19, ...)" a release per kind.
        entry.replacement = target[1]!.startsWith('.../')
          ? `${groupVersion.split('/')[0]}/${target[1]!.slice(4)}`
          : target[1]!;
        const since = target[2] ?? '';
        entry.since = /^[0-9.]+$/.test(since)
          ? since
          : new RegExp(`${kind} ([0-9.]+)`).exec(since)?.[1];
        return entry;
      })
    );
  });
}

const gvOf = (r: RemovedVersion): string =>
  r.group === '' ? r.version : `${r.group}/${r.version}`;

/** Served versions of the gateway with no --runtime-config. */
const defaultServed: ServedVersions = (group, resource) =>
  enabledResources(builtinResources, '')
    .filter((d) => d.group === group && d.resource === resource)
    .map((d) => d.version);

describe('Versioning: removed API versions by release (the spec table, one row each)', () => {
  const spec = specEntries();

  it('the spec rows parse into one entry per kind and old version', () => {
    assert.equal(specRemovedVersionRows.split('\n').filter((l) => l.startsWith('| ')).length, 29);
    assert.equal(spec.length, 48);
  });

  for (const e of spec) {
    it(`${e.release} ${e.kind} ${e.groupVersion}: use instead ${e.replacement}${e.since ? ` (${e.since})` : ''}`, () => {
      const [group, version] = e.groupVersion.includes('/')
        ? (e.groupVersion.split('/') as [string, string])
        : ['', e.groupVersion];
      const ours = removedVersions.filter(
        (r) => r.group === group && r.version === version && r.kind === e.kind
      );
      assert.equal(ours.length, 1, `one entry for ${e.kind} ${e.groupVersion}`);
      const r = ours[0]!;
      assert.equal(r.removedIn, e.release);
      assert.equal(r.replacement, e.replacement);
      assert.equal(r.since, e.since);
      assert.equal(removedVersionOf(group, version, r.resources[0]!), r);
    });
  }

  it('every entry of the gateway is a spec row, or one of the two removals after the spec', () => {
    const fromSpec = new Set(spec.map((e) => `${e.kind} ${e.groupVersion}`));
    const beyond = removedVersions
      .filter((r) => !fromSpec.has(`${r.kind} ${gvOf(r)}`))
      .map((r) => `${r.removedIn} ${r.kind} ${gvOf(r)}`);
    // Upstream 1.32 removed flowcontrol v1beta3 and SelfSubjectReview v1alpha1; the spec's table
    // stops at 1.29.
    assert.deepEqual(beyond, [
      '1.32 FlowSchema flowcontrol.apiserver.orch.io/v1beta3',
      '1.32 PriorityLevelConfiguration flowcontrol.apiserver.orch.io/v1beta3',
      '1.32 SelfSubjectReview authentication.orch.io/v1alpha1',
    ]);
  });
});

describe('the 404 of a removed version names what to use', () => {
  const find = (kind: string, gv: string): RemovedVersion =>
    removedVersions.find((r) => r.kind === kind && gvOf(r) === gv)!;

  it('a served replacement, with its release', () => {
    assert.equal(
      removedVersionMessage(find('Ingress', 'extensions/v1beta1'), defaultServed),
      'Ingress extensions/v1beta1 was removed in v1.22 and is not served; use networking.orch.io/v1 (available since 1.19)'
    );
  });

  it('APIService apiregistration.orch.io/v1beta1: the answer points to v1, which is served', () => {
    const r = find('APIService', 'apiregistration.orch.io/v1beta1');
    assert.deepEqual(defaultServed('apiregistration.orch.io', 'apiservices'), ['v1']);
    assert.deepEqual(replacementFor(r, defaultServed), {
      use: 'apiregistration.orch.io/v1',
      since: '1.10',
    });
    // Were v1 not served, the answer would say so.
    assert.equal(
      removedVersionMessage(r, () => []),
      'APIService apiregistration.orch.io/v1beta1 was removed in v1.22 and is not served; its replacement apiregistration.orch.io/v1 is not served either'
    );
  });

  it('a replacement removed in turn: what replaces it (flowcontrol v1beta2 -> v1beta3 -> v1; PodSecurityPolicy)', () => {
    const fc = 'flowcontrol.apiserver.orch.io';
    const r = find('FlowSchema', `${fc}/v1beta2`);
    const v1beta3Served = defaultServed(fc, 'flowschemas').includes('v1beta3');
    assert.equal(
      removedVersionMessage(r, defaultServed),
      v1beta3Served
        ? `FlowSchema ${fc}/v1beta2 was removed in v1.29 and is not served; use ${fc}/v1beta3 (available since 1.26)`
        : `FlowSchema ${fc}/v1beta2 was removed in v1.29 and is not served; use ${fc}/v1 (available since 1.29)`
    );
    assert.equal(
      removedVersionMessage(find('PodSecurityPolicy', 'extensions/v1beta1'), defaultServed),
      'PodSecurityPolicy extensions/v1beta1 was removed in v1.16 and is not served; use Pod security admission or a third-party admission webhook'
    );
  });

  it('no entry of the table sends a client to a version the gateway does not serve', () => {
    for (const r of removedVersions) {
      const repl = replacementFor(r, defaultServed);
      if ('none' in repl) {
        assert.equal(r.kind, 'APIService', `${r.kind} ${gvOf(r)}`);
        continue;
      }
      const m = /^(?:([a-z0-9.-]+)\/)?(v[0-9]+\w*)$/.exec(repl.use);
      if (!m) continue; // a sentence
      assert.ok(
        defaultServed(m[1] ?? '', r.resources[0]!).includes(m[2]!),
        `${r.kind} ${gvOf(r)} -> ${repl.use}`
      );
    }
  });
});
