// A kubeconfig for an arbitrary user: a client certificate (CN = user, O = groups) issued by the
// suite's cluster CA, for tests of what a user other than the admin may do.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  issueCertificate,
  loadCertificateAuthority,
  writeKubeconfig,
} from '@orch/component-base/pki';
import type { ClusterPki } from '@orch/component-base/pki';

export interface UserCredentials {
  kubeconfig: string;
  certFile: string;
  keyFile: string;
}

export async function userKubeconfig(
  pki: ClusterPki,
  server: string,
  user: string,
  groups: string[] = []
): Promise<UserCredentials> {
  const ca = pki.file('ca');
  const authority = await loadCertificateAuthority(
    await readFile(ca.certFile, 'utf8'),
    await readFile(ca.keyFile, 'utf8')
  );
  const pair = await issueCertificate(authority, {
    commonName: user,
    organizations: groups,
    usages: ['client'],
  });
  const base = join(pki.dir, `user-${user.replace(/[^a-zA-Z0-9-]/g, '_')}`);
  const certFile = `${base}.crt`;
  const keyFile = `${base}.key`;
  await writeFile(certFile, pair.certPem);
  await writeFile(keyFile, pair.keyPem, { mode: 0o600 });
  const kubeconfig = `${base}.kubeconfig`;
  await writeKubeconfig(kubeconfig, { server, caFile: pki.caFile, certFile, keyFile });
  return { kubeconfig, certFile, keyFile };
}
