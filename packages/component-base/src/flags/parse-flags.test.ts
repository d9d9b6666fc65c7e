// A flag marked deprecated (pflag's MarkDeprecated): it still sets its value, each use prints
// `Flag --<name> has been deprecated, <message>` on stderr, and --help leaves it out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deprecatedFlagWarnings, flagsHelp, parseFlags } from './parse-flags.js';

const specs = {
  'new-flag': { type: 'string', description: 'The flag to use.' },
  'old-flag': {
    type: 'string',
    description: 'The flag it replaces.',
    deprecated: 'use --new-flag instead.',
  },
  verbose: { type: 'boolean', description: 'More output.' },
} as const;

/** What parseFlags writes on stderr while it parses `argv`. */
function stderrOf(argv: string[]): { values: unknown; stderr: string } {
  let stderr = '';
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => {
    stderr += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    return { values: parseFlags('orch-test', specs, argv), stderr };
  } finally {
    process.stderr.write = write;
  }
}

test('a deprecated flag still works and warns on stderr as pflag does, once per use', () => {
  const { values, stderr } = stderrOf(['--old-flag=x', '--verbose']);
  assert.equal((values as Record<string, unknown>)['old-flag'], 'x');
  assert.equal(stderr, 'Flag --old-flag has been deprecated, use --new-flag instead.\n');
  assert.equal(stderrOf(['--old-flag', 'a', '--old-flag=b']).stderr.split('\n').length - 1, 2);
});

test('flags that are not deprecated print nothing', () => {
  assert.equal(stderrOf(['--new-flag=x', '--verbose']).stderr, '');
  assert.deepEqual(deprecatedFlagWarnings(specs, ['new-flag', 'verbose']), []);
});

test('--help leaves a deprecated flag out and lists the others', () => {
  const help = flagsHelp('orch-test', specs);
  assert.ok(help.includes('  --new-flag string\n      The flag to use.\n'), help);
  assert.ok(help.includes('  --verbose\n'), help);
  assert.ok(!help.includes('old-flag'), help);
});
