// The folder layers of eslint.layers.mjs, as lint enforces them: a deliberate back import is
// refused, an import down the layers passes, `make lint` (the repository's eslint.config.mjs)
// applies the rule to production sources, and every folder of a layered workspace has its place.
// ESLint runs with the layer rule alone and no type information, so this takes a second or two.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import type { Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const rule = 'import-x/no-restricted-paths';

interface Layers {
  layers: Record<string, string[]>;
  layerZones(): unknown[];
}
const { layers, layerZones } = (await import(
  pathToFileURL(join(root, 'eslint.layers.mjs')).href
)) as Layers;

// The import-x plugin and its resolver settings as `make lint` has them.
const lintConfig = (await import(pathToFileURL(join(root, 'eslint.config.mjs')).href)) as {
  default: Linter.Config[];
};
const importX = lintConfig.default.find((c) => c.plugins?.['import-x']);

const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: importX?.plugins ?? {},
      settings: importX?.settings ?? {},
      rules: { [rule]: ['error', { basePath: root, zones: layerZones() }] },
    },
  ],
});

/** The layer rule's messages for `code` placed at `file` (relative to the repository root). */
async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('folder layers', () => {
  test('a back import, from http/ up to registry/, is refused', async () => {
    const messages = await lint(
      'services/gateway/src/http/layers-probe.ts',
      "import type { Store } from '../registry/store.js';\nexport type Probe = Store;\n"
    );
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(messages[0] ?? '', /"\.\.\/registry\/store\.js" imported in restricted zone/);
    assert.match(messages[0] ?? '', /src\/http imports only the folders below it/);
  });

  test('the review kinds cannot go back to authn/: authn imports no registry', async () => {
    const messages = await lint(
      'services/gateway/src/authn/layers-probe.ts',
      "import { restKey } from '../registry/rest.js';\nexport const probe = restKey;\n"
    );
    assert.equal(messages.length, 1, messages.join('\n'));
  });

  test('a folder importing a file of the top (src/*.ts) is refused', async () => {
    const messages = await lint(
      'services/gateway/src/authz/layers-probe.ts',
      "import type { GatewayConfig } from '../config.js';\nexport type Probe = GatewayConfig;\n"
    );
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(messages[0] ?? '', /are the top layer/);
  });

  test('imports down the layers, within a folder and from the top pass', async () => {
    const cases: [string, string][] = [
      ['services/gateway/src/registry/layers-probe.ts', '../http/handler.js'],
      ['services/gateway/src/registry/core/layers-probe.ts', '../../authz/authorizer.js'],
      ['services/gateway/src/filters/layers-probe.ts', '../handlers/create.js'],
      ['services/gateway/src/handlers/layers-probe.ts', './create.js'],
      ['services/gateway/src/layers-probe.ts', './filters/with-audit.js'],
      ['services/authorizer/src/bootstrap/layers-probe.ts', '../rbac/policy-client.js'],
    ];
    for (const [file, from] of cases) {
      const messages = await lint(file, `export * as probe from '${from}';\n`);
      assert.deepEqual(messages, [], `${file} importing ${from}`);
    }
  });

  test('make lint applies the rule to production sources, not to tests', async () => {
    const makeLint = new ESLint({ cwd: root });
    const production = await makeLint.calculateConfigForFile(
      join(root, 'services/gateway/src/http/handler.ts')
    );
    const tests = await makeLint.calculateConfigForFile(
      join(root, 'services/gateway/src/http/handler.test.ts')
    );
    const severity = (config: unknown): unknown => {
      const value = (config as { rules: Record<string, unknown> }).rules[rule];
      return Array.isArray(value) ? value[0] : value;
    };
    assert.ok([2, 'error'].includes(severity(production) as number), 'on production sources');
    assert.equal(severity(tests), undefined, 'on tests');
  });

  test('every folder of a layered workspace has its layer, and every layer its folder', () => {
    for (const [src, folders] of Object.entries(layers)) {
      const present = readdirSync(join(root, src), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
      for (const folder of present)
        assert.ok(folders.includes(folder), `${src}/${folder} has no place in eslint.layers.mjs`);
      for (const folder of folders)
        assert.ok(existsSync(join(root, src, folder)), `${src}/${folder} is listed but absent`);
    }
  });
});
