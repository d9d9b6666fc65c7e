// A user's own signer, as a separate program using only the public API (the tests fork it):
// it serves `example.com/custom` with a CA of its own, signing approved requests through the
// status subresource with the identity of the kubeconfig it is given (argv[2]). It shows that a
// signer name the certificates service does not serve (--signers) is free for someone else.
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import { createCertificateAuthority } from '@orch/component-base/pki';
import { createLogger } from '@orch/component-base/logs';
import { approvalOf, csrPath, isIssued, parseCsr } from '../csr.js';
import type { CertificateSigningRequest } from '../csr.js';
import { loadAuthority, signRequest } from '../signer/authority.js';

const signerName = 'example.com/custom';
const log = createLogger('custom-signer', 'info');
const client = new RestClient(loadKubeconfig(process.argv[2] ?? ''));
const caPem = await createCertificateAuthority({ commonName: 'example-custom-ca' });
const ca = await loadAuthority(caPem.certPem, caPem.keyPem);
const informer = new SharedInformer({
  listerWatcher: new RestListerWatcher(client, csrPath),
  name: 'custom-signer',
  log,
});

async function handle(csr: CertificateSigningRequest): Promise<void> {
  if (csr.spec.signerName !== signerName || isIssued(csr) || !approvalOf(csr).approved) return;
  const pem = await signRequest(ca, parseCsr(csr), {
    ttlMs: 3600_000,
    usages: csr.spec.usages ?? [],
    backdateMs: 0,
    shortMs: 0,
    now: new Date(),
  });
  await client.request('PUT', `${csrPath}/${csr.metadata.name}/status`, {
    ...csr,
    status: { ...csr.status, certificate: Buffer.from(pem).toString('base64') },
  });
  log.info('signed', { csr: csr.metadata.name });
}

// The watch hands the decoded JSON of stored CSRs.
const onObject = (o: Record<string, unknown>): void => {
  handle(o as CertificateSigningRequest).catch((err: unknown) =>
    log.warn('not signed', { err: String(err) })
  );
};
informer.addEventHandler({ onAdd: onObject, onUpdate: (_old, o) => onObject(o) });
await informer.start();
process.on('SIGTERM', () => {
  informer.stop();
  client.close();
  process.exit(0);
});
