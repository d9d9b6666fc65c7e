import { access, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';

import type { CertificateAuthority } from './certificate-authority.js';
import { createCertificateAuthority, loadCertificateAuthority } from './certificate-authority.js';
import type { IssueCertificateOptions } from './issue-certificate.js';
import { issueCertificate } from './issue-certificate.js';

/** The components that get a serving + client certificate by default. */
export const defaultServiceNames: readonly string[] = [
  'gateway',
  'storage',
  'controllers',
  'authorizer',
  'admission',
  'certificates',
];

/** Subject O of every component certificate. */
export const componentsGroup = 'system:orch-components';
/** CN of the admin client certificate. */
export const adminUserName = 'orch-admin';
/** O of the admin client certificate: the superuser group. */
export const mastersGroup = 'system:masters';
/** Name of the admin certificate files (`admin.crt`, `admin.key`). */
export const adminCertName = 'admin';
/**
 * Name of the authorizer's client certificate for the public API (`authorizer-client.crt`):
 * CN `system:orch:authorizer`, O `system:masters`. The authorizer writes the bootstrap policy
 * and the aggregated roles' rules through the gateway with it (upstream's RBAC bootstrap hook
 * uses a loopback client in system:masters): masters are allowed by the authorizer's
 * privileged-groups mode before any RBAC object exists, so its own requests never wait on the
 * policy they create.
 */
export const authorizerClientCertName = 'authorizer-client';

/**
 * Name of the monitoring client certificate (`monitoring.crt`): CN `orch-monitoring`, O
 * `system:monitoring`, the group the bootstrap policy lets read /metrics and the health paths
 * of every process (what deploy/monitoring's Prometheus scrapes with).
 */
export const monitoringCertName = 'monitoring';
export const monitoringGroup = 'system:monitoring';

export interface EnsureClusterPkiOptions {
  /** Default {@link defaultServiceNames}. */
  serviceNames?: string[];
  /** Extra SANs for every component certificate; IP literals become IP SANs, the rest DNS. */
  extraSans?: string[];
}

export interface CertificateFiles {
  certFile: string;
  keyFile: string;
}

export interface ClusterPki {
  /** Absolute path of the PKI directory. */
  dir: string;
  /** Absolute path of `ca.crt`. */
  caFile: string;
  caCertPem: string;
  /** Paths of `<name>.crt` and `<name>.key` in {@link dir} (they exist for the names created). */
  file(name: string): CertificateFiles;
}

/** The certificate files of `name` in a cluster PKI directory: `<name>.crt`, `<name>.key`. */
export function certFiles(pkiDir: string, name: string): CertificateFiles {
  return { certFile: join(pkiDir, `${name}.crt`), keyFile: join(pkiDir, `${name}.key`) };
}

/** CN of a component certificate: `system:orch:<name>`. */
export function componentUserName(name: string): string {
  return `system:orch:${name}`;
}

/**
 * Makes sure `dir` holds a cluster CA, a serving + client certificate per component, an admin
 * client certificate, the monitoring client certificate and the authorizer's API client
 * certificate. Idempotent: an existing CA
 * (`ca.crt` + `ca.key`) is reused and only missing certificate files are created; existing ones
 * are never rewritten. Keys are written mode 0600.
 */
export async function ensureClusterPki(
  dir: string,
  opts: EnsureClusterPkiOptions = {}
): Promise<ClusterPki> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true, mode: 0o755 });
  const file = (name: string): CertificateFiles => certFiles(root, name);

  const caFiles = file('ca');
  let ca: CertificateAuthority;
  if ((await exists(caFiles.certFile)) && (await exists(caFiles.keyFile))) {
    ca = await loadCertificateAuthority(
      await readFile(caFiles.certFile, 'utf8'),
      await readFile(caFiles.keyFile, 'utf8')
    );
  } else {
    const created = await createCertificateAuthority({ commonName: 'orch-ca' });
    await writePair(caFiles, created.certPem, created.keyPem);
    ca = await loadCertificateAuthority(created.certPem, created.keyPem);
  }

  const extraSans = opts.extraSans ?? [];
  const wanted: [string, IssueCertificateOptions][] = [
    ...(opts.serviceNames ?? defaultServiceNames).map((name): [string, IssueCertificateOptions] => [
      name,
      {
        commonName: componentUserName(name),
        organizations: [componentsGroup],
        dnsNames: unique(['localhost', name, ...extraSans.filter((san) => isIP(san) === 0)]),
        ipAddresses: unique(['127.0.0.1', '::1', ...extraSans.filter((san) => isIP(san) !== 0)]),
        usages: ['server', 'client'],
      },
    ]),
    [
      adminCertName,
      { commonName: adminUserName, organizations: [mastersGroup], usages: ['client'] },
    ],
    [
      monitoringCertName,
      { commonName: 'orch-monitoring', organizations: [monitoringGroup], usages: ['client'] },
    ],
    [
      authorizerClientCertName,
      {
        commonName: componentUserName('authorizer'),
        organizations: [mastersGroup],
        usages: ['client'],
      },
    ],
  ];
  for (const [name, issueOpts] of wanted) {
    const files = file(name);
    if ((await exists(files.certFile)) && (await exists(files.keyFile))) continue;
    const pair = await issueCertificate(ca, issueOpts);
    await writePair(files, pair.certPem, pair.keyPem);
  }

  return { dir: root, caFile: caFiles.certFile, caCertPem: ca.certPem, file };
}

async function writePair(files: CertificateFiles, certPem: string, keyPem: string): Promise<void> {
  await writeFile(files.keyFile, keyPem, { mode: 0o600 });
  await chmod(files.keyFile, 0o600);
  await writeFile(files.certFile, certPem, { mode: 0o644 });
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
