// The cleaning controller (upstream pkg/controller/certificates/cleaner/cleaner.go): every poll
// interval (upstream 1 hour) each request is deleted when approved, denied or failed more than
// 1 hour ago (its condition's lastUpdateTime), pending more than 24 hours (its creation), or
// holding a certificate that has expired. The clock is injectable, so tests run it fast.
import type { RestClient } from '@orch/apimachinery/client';
import { isNotFound } from '@orch/apimachinery/errors';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';
import { certificatesOf, csrPath, isIssued } from '../csr.js';
import type { CertificateSigningRequest } from '../csr.js';

export const pendingExpirationMs = 24 * 60 * 60 * 1000;
export const approvedExpirationMs = 60 * 60 * 1000;
export const deniedExpirationMs = 60 * 60 * 1000;
export const failedExpirationMs = 60 * 60 * 1000;

const expirations: Record<string, number> = {
  Approved: approvedExpirationMs,
  Denied: deniedExpirationMs,
  Failed: failedExpirationMs,
};

/** Why a request is due for deletion at `now`, or undefined when it is not. */
export function cleanupReason(csr: CertificateSigningRequest, now: Date): string | undefined {
  const t = now.getTime();
  const created = Date.parse(csr.metadata.creationTimestamp ?? '') || t;
  const conditions = csr.status?.conditions ?? [];
  for (const c of conditions) {
    const limit = expirations[c.type];
    if (limit === undefined || c.status !== 'True') continue;
    const at = Date.parse(c.lastUpdateTime ?? c.lastTransitionTime ?? '') || created;
    if (t - at > limit) return `${c.type.toLowerCase()} more than ${limit / 60_000} minutes ago`;
  }
  if (!conditions.some((c) => c.type in expirations) && t - created > pendingExpirationMs)
    return 'pending more than 24 hours';
  if (isIssued(csr)) {
    try {
      if (certificatesOf(csr).some((cert) => cert.notAfter.getTime() < t))
        return 'its certificate has expired';
    } catch {
      // an unparsable certificate: upstream logs and keeps the request
    }
  }
  return undefined;
}

export interface CsrCleanerOptions {
  client: RestClient;
  log: Logger;
  now?: () => Date;
  /** Default 1 hour. */
  pollIntervalMs?: number;
}

export class CsrCleaner {
  readonly informer: SharedInformer;
  readonly #o: CsrCleanerOptions;
  readonly #log: Logger;

  constructor(o: CsrCleanerOptions) {
    this.#o = o;
    this.#log = o.log.child({ controller: 'csrcleaner' });
    this.informer = new SharedInformer({
      listerWatcher: new RestListerWatcher(o.client, csrPath),
      name: 'csrcleaner',
      log: this.#log,
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    await this.informer.start();
    await this.informer.waitForSync();
    try {
      while (!signal.aborted) {
        await this.pollOnce();
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.#o.pollIntervalMs ?? 60 * 60 * 1000);
          signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
        });
      }
    } finally {
      this.informer.stop();
    }
  }

  /** One pass over the cached requests; the names deleted. */
  async pollOnce(): Promise<string[]> {
    const now = this.#o.now?.() ?? new Date();
    const deleted: string[] = [];
    // The informer holds the decoded JSON of stored CSRs.
    for (const o of this.informer.list()) {
      const csr = o as CertificateSigningRequest;
      const reason = cleanupReason(csr, now);
      if (!reason) continue;
      try {
        // upstream deletes by name with no preconditions
        await this.#o.client.request(
          'DELETE',
          `${csrPath}/${encodeURIComponent(csr.metadata.name)}`
        );
        deleted.push(csr.metadata.name);
        this.#log.info('deleted certificate signing request', { csr: csr.metadata.name, reason });
      } catch (err) {
        if (!isNotFound(err))
          this.#log.warn('unable to delete certificate signing request', {
            csr: csr.metadata.name,
            err: String(err),
          });
      }
    }
    return deleted;
  }
}
