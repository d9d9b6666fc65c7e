// The bootstrap signer (upstream pkg/controller/bootstrap/bootstrapsigner.go, plus what kubeadm's
// clusterinfo phase writes): the `cluster-info` ConfigMap in orch-public holds `kubeconfig` (the
// API address and the cluster CA, no credentials) and `jws-kubeconfig-<token-id>`, a detached
// HS256 JWS of it keyed by the full token, for every valid token secret with
// usage-bootstrap-signing. It is created when missing (orch-public itself is one of the system
// namespaces the gateway keeps, as kube-apiserver keeps kube-public), and rewritten
// when the tokens, the CA or the address change; signatures of gone or expired tokens go.
import type { RestClient } from '@orch/apimachinery/client';
import { isAlreadyExists, isConflict, isNotFound } from '@orch/apimachinery/errors';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';
import { stringify } from 'yaml';
import { computeDetachedSignature } from './jws.js';
import {
  bootstrapTokenNamespace,
  clusterInfoName,
  clusterInfoNamespace,
  expiresInMs,
  isBootstrapTokenSecret,
  jwsSignatureKeyPrefix,
  kubeconfigKey,
  tokenForSigning,
} from './token-secret.js';

type Obj = Record<string, unknown>;

export interface BootstrapSignerOptions {
  client: RestClient;
  log: Logger;
  /** The API address written into cluster-info. */
  server: () => string;
  /** The CA bundle (PEM) written into cluster-info; read at every sync, so a new CA is seen. */
  caBundle: () => Promise<string>;
  now?: () => Date;
  /** Sync this often even without a change (a CA file rewritten in place; default 60 s). */
  resyncMs?: number;
}

/** The kubeconfig of cluster-info, as kubeadm writes it: one cluster, no users. */
export function clusterInfoKubeconfig(server: string, caPem: string): string {
  return stringify({
    apiVersion: 'v1',
    clusters: [
      {
        cluster: {
          'certificate-authority-data': Buffer.from(caPem).toString('base64'),
          server,
        },
        name: '',
      },
    ],
    contexts: null,
    'current-context': '',
    kind: 'Config',
    preferences: {},
    users: null,
  });
}

export class BootstrapSigner {
  readonly configMaps: SharedInformer;
  readonly secrets: SharedInformer;
  readonly #o: BootstrapSignerOptions;
  readonly #log: Logger;
  #pending = false;
  #running: Promise<void> = Promise.resolve();
  #expiryTimer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(o: BootstrapSignerOptions) {
    this.#o = o;
    this.#log = o.log.child({ controller: 'bootstrapsigner' });
    this.configMaps = new SharedInformer({
      listerWatcher: new RestListerWatcher(
        o.client,
        `/api/v1/namespaces/${clusterInfoNamespace}/configmaps`
      ),
      name: 'bootstrapsigner-configmaps',
      log: this.#log,
    });
    this.secrets = new SharedInformer({
      listerWatcher: new RestListerWatcher(
        o.client,
        `/api/v1/namespaces/${bootstrapTokenNamespace}/secrets`
      ),
      name: 'bootstrapsigner-secrets',
      log: this.#log,
    });
    const kick = (): void => this.queue();
    this.configMaps.addEventHandler({
      onAdd: (o) => this.#ifClusterInfo(o, kick),
      onUpdate: (_p, o) => this.#ifClusterInfo(o, kick),
      onDelete: (o) => this.#ifClusterInfo(o, kick),
    });
    const onSecret = (s: Obj): void => {
      if (isBootstrapTokenSecret(s)) kick();
    };
    this.secrets.addEventHandler({
      onAdd: onSecret,
      onUpdate: (_p, s) => onSecret(s),
      onDelete: onSecret,
    });
  }

  #ifClusterInfo(o: Obj, f: () => void): void {
    if ((o['metadata'] as { name?: string } | undefined)?.name === clusterInfoName) f();
  }

  async run(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    await Promise.all([this.configMaps.start(), this.secrets.start()]);
    await Promise.all([this.configMaps.waitForSync(), this.secrets.waitForSync()]);
    const resync = setInterval(() => this.queue(), this.#o.resyncMs ?? 60_000);
    this.queue();
    await new Promise<void>((resolve) =>
      signal.addEventListener('abort', () => resolve(), { once: true })
    );
    this.#stopped = true;
    clearInterval(resync);
    if (this.#expiryTimer) clearTimeout(this.#expiryTimer);
    await this.#running.catch(() => undefined);
    this.configMaps.stop();
    this.secrets.stop();
  }

  /** Schedules a sync; syncs run one at a time, and one asked for during a sync runs after it. */
  queue(): void {
    if (this.#stopped || this.#pending) return;
    this.#pending = true;
    this.#running = this.#running.then(async () => {
      this.#pending = false;
      if (this.#stopped) return;
      try {
        await this.signConfigMap();
      } catch (err) {
        this.#log.warn('cluster-info sync failed; retrying', { err: String(err) });
        setTimeout(() => this.queue(), 1000).unref();
      }
    });
  }

  /** One sync of cluster-info (upstream signConfigMap). */
  async signConfigMap(): Promise<void> {
    const now = this.#o.now?.() ?? new Date();
    const content = clusterInfoKubeconfig(this.#o.server(), await this.#o.caBundle());
    const tokens = new Map<string, string>();
    let nextExpiry: number | undefined;
    for (const s of this.secrets.list()) {
      const t = tokenForSigning(s, now);
      if (!t || tokens.has(t.id)) continue;
      tokens.set(t.id, t.secret);
      const ttl = expiresInMs(s, now);
      if (ttl !== undefined) nextExpiry = Math.min(nextExpiry ?? ttl, ttl);
    }
    // An expiring token's signature goes when it expires, even before the token cleaner runs.
    if (this.#expiryTimer) clearTimeout(this.#expiryTimer);
    if (nextExpiry !== undefined)
      this.#expiryTimer = setTimeout(() => this.queue(), Math.min(nextExpiry + 10, 2 ** 31 - 1));

    const data: Record<string, string> = { [kubeconfigKey]: content };
    for (const [id, secret] of [...tokens].sort()) {
      data[`${jwsSignatureKeyPrefix}${id}`] = await computeDetachedSignature(
        content,
        id,
        `${id}.${secret}`
      );
    }
    const existing = this.configMaps.get(`${clusterInfoNamespace}/${clusterInfoName}`);
    const path = `/api/v1/namespaces/${clusterInfoNamespace}/configmaps`;
    if (!existing) {
      try {
        await this.#o.client.request('POST', path, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: clusterInfoName, namespace: clusterInfoNamespace },
          data,
        });
        this.#log.info('cluster-info created', { tokens: tokens.size });
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
      return;
    }
    const old = (existing['data'] ?? {}) as Record<string, string>;
    // keys other than the kubeconfig and signatures are kept as they are
    const merged: Record<string, string> = {};
    for (const [k, v] of Object.entries(old))
      if (k !== kubeconfigKey && !k.startsWith(jwsSignatureKeyPrefix)) merged[k] = v;
    Object.assign(merged, data);
    if (JSON.stringify(sorted(merged)) === JSON.stringify(sorted(old))) return;
    try {
      await this.#o.client.request('PUT', `${path}/${clusterInfoName}`, {
        ...existing,
        data: merged,
      });
      this.#log.info('cluster-info updated', { tokens: tokens.size });
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
      // the informer brings the newer copy, which queues another sync
    }
  }
}

function sorted(o: Record<string, string>): [string, string][] {
  return Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
