// The table of docs/admission.md ("Where plugins run") is the one list of plugins as operators
// read it: the same plugins, in the same order, with the same default and the same process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionPlugins } from '@orch/apimachinery/admission';
import { markdownSection, readRepoFile } from '@orch/testing/docs';

const processes = {
  gateway: 'gateway',
  admission: 'admission service',
  certificates: 'certificates service',
};

test('docs/admission.md lists every plugin in order with its default and process', () => {
  const section = markdownSection(readRepoFile('docs/admission.md'), 'Where plugins run') ?? '';
  const rows = [...section.matchAll(/^\| \d+ \| `(\w+)` \| (on|off) \| ([^|(]+)/gm)].map(
    ([, name, def, where]) => `${name} ${def} ${where!.trim()}`
  );
  assert.deepEqual(
    rows,
    admissionPlugins.map((p) => `${p.name} ${p.defaultOn ? 'on' : 'off'} ${processes[p.placement]}`)
  );
});
