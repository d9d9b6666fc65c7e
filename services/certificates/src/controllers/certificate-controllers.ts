// The certificates service's controllers as one runnable (upstream kube-controller-manager's
// certificate and bootstrap controllers): the enabled ones (--controllers) run while this
// replica holds the Lease (--leader-elect); a replica that loses it stops them and campaigns
// again, and the informers of the new leader list afresh, so no request is lost.
import { readFile } from 'node:fs/promises';
import type { RestClient } from '@orch/apimachinery/client';
import { LeaderElector, defaultIdentity } from '@orch/component-base/leaderelection';
import type { Logger } from '@orch/component-base/logs';
import { SarApprover } from './approver/sar-approver.js';
import { BootstrapSigner } from './bootstrap/bootstrap-signer.js';
import { TokenCleaner } from './bootstrap/token-cleaner.js';
import { CsrCleaner } from './cleaner/csr-cleaner.js';
import { isControllerEnabled } from './controller-options.js';
import type { CertificateControllersOptions } from './controller-options.js';
import { loadAuthority } from './signer/authority.js';
import type { CertificateAuthority } from './signer/authority.js';
import { SignerController } from './signer/signer-controller.js';

export interface CertificateControllersDeps {
  options: CertificateControllersOptions;
  client: RestClient;
  log: Logger;
  /** The API address of the client (for cluster-info when --cluster-info-server is unset). */
  server: string;
  /** The CA the client trusts the API with (cluster-info's CA when no signing CA is given). */
  serverCa: Buffer;
  /** Clock for the cleaners (tests pass a fast one). */
  now?: () => Date;
  /** The cleaner's poll interval (default 1 hour). */
  cleanerPollMs?: number;
  identity?: string;
}

interface Part {
  name: string;
  run(signal: AbortSignal): Promise<void>;
}

export class CertificateControllers {
  /** A Runnable beside the gRPC server: nothing of its own listens. */
  readonly serving: Promise<number> = Promise.resolve(0);
  readonly identity: string;
  readonly elector: LeaderElector | undefined;
  readonly #d: CertificateControllersDeps;
  #authority: { key: string; ca: Promise<CertificateAuthority> } | undefined;

  constructor(d: CertificateControllersDeps) {
    this.#d = d;
    this.identity = d.identity ?? defaultIdentity();
    const le = d.options.leaderElection;
    this.elector = le.leaderElect
      ? new LeaderElector(
          d.client,
          {
            namespace: le.resourceNamespace,
            name: le.resourceName,
            identity: this.identity,
            leaseDurationMs: le.leaseDurationMs,
            renewDeadlineMs: le.renewDeadlineMs,
            retryPeriodMs: le.retryPeriodMs,
            // a replica stopping gives the lease up, so another takes over at once
            releaseOnCancel: true,
          },
          d.log
        )
      : undefined;
  }

  /** The enabled controllers' names. */
  enabled(): string[] {
    return this.#parts().map((p) => p.name);
  }

  /** Runs until `signal` aborts (campaigning first when leader election is on). */
  async run(signal: AbortSignal): Promise<void> {
    if (!this.elector) return this.#runParts(signal);
    // A replica that loses the lease stops its controllers and campaigns again (it does not exit
    // as the controllers service does: the gRPC admission server beside it keeps serving).
    while (!signal.aborted) await this.elector.run(signal, (s) => this.#runParts(s));
  }

  async #runParts(signal: AbortSignal): Promise<void> {
    const parts = this.#parts();
    this.#d.log.info('certificate controllers starting', { controllers: parts.map((p) => p.name) });
    await Promise.all(
      parts.map((p) =>
        p
          .run(signal)
          .catch((err: unknown) =>
            this.#d.log.error('controller ended', { controller: p.name, err: String(err) })
          )
      )
    );
  }

  /** The CA, read again when its files change (a rotated CA is used for the next certificate). */
  async #ca(): Promise<CertificateAuthority> {
    const o = this.#d.options;
    const [cert, key] = await Promise.all([
      readFile(o.clusterSigningCertFile, 'utf8'),
      readFile(o.clusterSigningKeyFile, 'utf8'),
    ]);
    if (this.#authority?.key !== cert + key)
      this.#authority = { key: cert + key, ca: loadAuthority(cert, key) };
    return this.#authority.ca;
  }

  #parts(): Part[] {
    const { options: o, client, log } = this.#d;
    const parts: Part[] = [];
    const on = (name: string): boolean => isControllerEnabled(name, o.controllers);
    if (on('csrapproving')) {
      parts.push({ name: 'csrapproving', run: (s) => new SarApprover({ client, log }).run(s) });
    }
    if (on('csrsigning') && !o.clusterSigningCertFile)
      log.info('skipping csrsigning: no --cluster-signing-cert-file/--cluster-signing-key-file');
    if (on('csrsigning') && o.clusterSigningCertFile && o.signers.length > 0) {
      parts.push({
        name: 'csrsigning',
        run: (s) =>
          new SignerController({
            client,
            log,
            signerNames: o.signers,
            authority: () => this.#ca(),
            certTtlMs: o.clusterSigningDurationMs,
            ...(this.#d.now ? { now: this.#d.now } : {}),
          }).run(s),
      });
    }
    if (on('csrcleaner')) {
      parts.push({
        name: 'csrcleaner',
        run: (s) =>
          new CsrCleaner({
            client,
            log,
            ...(this.#d.now ? { now: this.#d.now } : {}),
            ...(this.#d.cleanerPollMs ? { pollIntervalMs: this.#d.cleanerPollMs } : {}),
          }).run(s),
      });
    }
    if (on('bootstrapsigner')) {
      parts.push({
        name: 'bootstrapsigner',
        run: (s) =>
          new BootstrapSigner({
            client,
            log,
            server: () => o.clusterInfoServer || this.#d.server,
            caBundle: async () =>
              o.clusterSigningCertFile
                ? readFile(o.clusterSigningCertFile, 'utf8')
                : this.#d.serverCa.toString('utf8'),
            ...(this.#d.now ? { now: this.#d.now } : {}),
          }).run(s),
      });
    }
    if (on('tokencleaner')) {
      parts.push({
        name: 'tokencleaner',
        run: (s) =>
          new TokenCleaner({ client, log, ...(this.#d.now ? { now: this.#d.now } : {}) }).run(s),
      });
    }
    return parts;
  }
}
