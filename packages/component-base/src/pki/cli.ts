#!/usr/bin/env node
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { adminCertName, ensureClusterPki } from './cluster-pki.js';
import { writeKubeconfig } from './kubeconfig.js';

const usage = `usage: orch-pki init --dir <dir> --server <url> [--kubeconfig <path>] [--san <name|ip>]...

Creates (or completes) the cluster PKI in <dir>: ca.crt/ca.key, a serving and client
certificate per component, admin.crt/admin.key, and an admin kubeconfig
(default <dir>/admin.kubeconfig). Existing files are kept.`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dir: { type: 'string' },
      server: { type: 'string' },
      kubeconfig: { type: 'string' },
      san: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (command !== 'init' || rest.length > 0 || !values.dir || !values.server) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }

  const pki = await ensureClusterPki(values.dir, { extraSans: values.san ?? [] });
  const admin = pki.file(adminCertName);
  const kubeconfig = values.kubeconfig ?? join(pki.dir, 'admin.kubeconfig');
  await writeKubeconfig(kubeconfig, {
    server: values.server,
    caFile: pki.caFile,
    certFile: admin.certFile,
    keyFile: admin.keyFile,
  });
  process.stdout.write(`pki: ${pki.dir}\nca: ${pki.caFile}\nkubeconfig: ${kubeconfig}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`orch-pki: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
);
