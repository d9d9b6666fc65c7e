// The signing controller (upstream pkg/controller/certificates/signer/signer.go): for each
// approved, not failed, not yet issued request of a signer this process serves, the request is
// checked against the signer's rules; one that breaks them gets a Failed condition (reason
// SignerValidationFailure) and a log line; otherwise the cluster CA signs it with lifetime
// min(--cluster-signing-duration, expirationSeconds) (at least 10 minutes) and the certificate
// is written through the status subresource.
import type { RestClient } from '@orch/apimachinery/client';
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';
import { approvalOf, csrPath, hasTrueCondition, isIssued, parseCsr } from '../csr.js';
import type { CertificateSigningRequest } from '../csr.js';
import { QueueController } from '../queue-controller.js';
import { signRequest } from './authority.js';
import type { CertificateAuthority } from './authority.js';
import { SignerValidationError, builtinSignerValidators, requestFacts } from './signer-rules.js';

export interface SignerControllerOptions {
  client: RestClient;
  log: Logger;
  /** The signer names served; each must be a built-in one. */
  signerNames: readonly string[];
  /** The CA; a function so a rotated CA file is picked up (read per signing). */
  authority: () => Promise<CertificateAuthority>;
  /** --cluster-signing-duration. */
  certTtlMs: number;
  now?: () => Date;
}

const minDurationMs = 10 * 60 * 1000;
export const signerBackdateMs = 5 * 60 * 1000;
export const signerShortMs = 8 * 60 * 60 * 1000;

/** Upstream signer.duration: the signer's ttl, or expirationSeconds within [10 min, ttl]. */
export function certificateDurationMs(certTtlMs: number, expirationSeconds?: number): number {
  if (expirationSeconds === undefined) return certTtlMs;
  const requested = expirationSeconds * 1000;
  if (requested > certTtlMs) return certTtlMs;
  if (requested < minDurationMs) return minDurationMs;
  return requested;
}

export class SignerController {
  readonly controller: QueueController;
  readonly #o: SignerControllerOptions;
  readonly #log: Logger;

  constructor(o: SignerControllerOptions) {
    for (const s of o.signerNames)
      if (!builtinSignerValidators.has(s)) throw new Error(`no built-in signer ${s}`);
    this.#o = o;
    this.#log = o.log.child({ controller: 'csrsigning' });
    this.controller = new QueueController({
      name: 'csrsigning',
      client: o.client,
      path: csrPath,
      log: o.log,
      // The informer hands the decoded JSON of stored CSRs.
      filter: (obj) => o.signerNames.includes((obj as CertificateSigningRequest).spec?.signerName),
      sync: (_key, obj) => this.handle(obj as CertificateSigningRequest | undefined),
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.controller.run(signal);
  }

  async handle(csr: CertificateSigningRequest | undefined): Promise<void> {
    if (!csr) return;
    if (!approvalOf(csr).approved || hasTrueCondition(csr, 'Failed')) return;
    if (isIssued(csr)) return;
    const validate = builtinSignerValidators.get(csr.spec.signerName);
    if (!validate || !this.#o.signerNames.includes(csr.spec.signerName)) return;
    const usages = csr.spec.usages ?? [];
    let req;
    try {
      req = parseCsr(csr);
      validate(requestFacts(req), usages);
      if (!(await req.verify()))
        throw new SignerValidationError('unable to verify certificate request signature');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.#log.warn('signer validation failed', {
        csr: csr.metadata.name,
        signer: csr.spec.signerName,
        message,
      });
      return this.#updateStatus(csr, (c) => ({
        ...c,
        status: {
          ...c.status,
          conditions: [
            ...(c.status?.conditions ?? []),
            {
              type: 'Failed',
              status: 'True',
              reason: 'SignerValidationFailure',
              message,
              lastUpdateTime: this.#now()
                .toISOString()
                .replace(/\.\d{3}Z$/, 'Z'),
              lastTransitionTime: this.#now()
                .toISOString()
                .replace(/\.\d{3}Z$/, 'Z'),
            },
          ],
        },
      }));
    }
    const pem = await signRequest(await this.#o.authority(), req, {
      ttlMs: certificateDurationMs(this.#o.certTtlMs, csr.spec.expirationSeconds),
      usages,
      backdateMs: signerBackdateMs,
      shortMs: signerShortMs,
      now: this.#now(),
    });
    await this.#updateStatus(csr, (c) => ({
      ...c,
      status: { ...c.status, certificate: Buffer.from(pem).toString('base64') },
    }));
    this.#log.info('certificate issued', { csr: csr.metadata.name, signer: csr.spec.signerName });
  }

  #now(): Date {
    return this.#o.now?.() ?? new Date();
  }

  /** PUT to the status subresource; a conflict or a deleted request is left to the next event. */
  async #updateStatus(
    csr: CertificateSigningRequest,
    change: (c: CertificateSigningRequest) => CertificateSigningRequest
  ): Promise<void> {
    try {
      await this.#o.client.request(
        'PUT',
        `${csrPath}/${encodeURIComponent(csr.metadata.name)}/status`,
        change(csr)
      );
    } catch (err) {
      if (isNotFound(err)) return;
      if (isConflict(err)) throw err; // retried with the informer's newer copy
      throw err;
    }
  }
}
