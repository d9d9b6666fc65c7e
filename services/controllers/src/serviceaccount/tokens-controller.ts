// The service-account token controller (k8s pkg/controller/serviceaccount/tokens_controller.go):
// a Secret of type kubernetes.io/service-account-token naming a ServiceAccount in its
// `kubernetes.io/service-account.name` annotation (and, if given, its uid in
// `kubernetes.io/service-account.uid`) gets `token` (a legacy token, legacy-token.ts), `ca.crt`
// (the cluster CA bundle) and `namespace`, and both annotations; such a Secret whose account is
// gone (or has another uid) is deleted, at once or when the account is. Writes go to the live
// Secret at its resourceVersion (the informer may lag).
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';
import { legacyToken } from './legacy-token.js';
import type { TokenSigningKey } from './legacy-token.js';

type Json = Record<string, unknown>;

/** v1.SecretTypeServiceAccountToken and its keys. */
export const serviceAccountTokenType = 'kubernetes.io/service-account-token';
export const serviceAccountNameKey = 'kubernetes.io/service-account.name';
export const serviceAccountUidKey = 'kubernetes.io/service-account.uid';

interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  annotations?: Record<string, string>;
}
const metaOf = (o: Json): Meta => (o['metadata'] ?? {}) as Meta;
const dataOf = (o: Json): Record<string, string> => (o['data'] ?? {}) as Record<string, string>;
const decoded = (v: string | undefined): string =>
  v === undefined ? '' : Buffer.from(v, 'base64').toString('utf8');
const encoded = (v: string): string => Buffer.from(v, 'utf8').toString('base64');

const isTokenSecret = (o: Json): boolean => o['type'] === serviceAccountTokenType;

/** The ServiceAccount a token Secret names: `<namespace>/<name>` and the uid, if given. */
export function referencedServiceAccount(secret: Json): { key: string; uid?: string } {
  const { namespace = '', annotations = {} } = metaOf(secret);
  const uid = annotations[serviceAccountUidKey];
  return {
    key: `${namespace}/${annotations[serviceAccountNameKey] ?? ''}`,
    ...(uid ? { uid } : {}),
  };
}

/**
 * What generateTokenIfNeeded still has to fill: the CA (when one is configured and differs),
 * the namespace, the token.
 */
export function tokenSecretNeeds(
  secret: Json,
  rootCa: string
): { ca: boolean; namespace: boolean; token: boolean } {
  const data = dataOf(secret);
  return {
    ca: rootCa.length > 0 && decoded(data['ca.crt']) !== rootCa,
    namespace: decoded(data['namespace']).length === 0,
    token: decoded(data['token']).length === 0,
  };
}

export class TokensController {
  readonly #client: RestClient;
  readonly #log: Logger;
  readonly #key: TokenSigningKey;
  readonly #rootCa: string;
  readonly #serviceAccounts: SharedInformer;
  readonly #secrets: SharedInformer;
  /** Keys `secret:<ns>/<name>` and `sa:<ns>/<name>`. */
  readonly #queue = new Set<string>();
  readonly #abort = new AbortController();
  #working = false;

  constructor(client: RestClient, log: Logger, key: TokenSigningKey, rootCa: string) {
    this.#client = client;
    this.#log = log.child({ controller: 'serviceaccount-token' });
    this.#key = key;
    this.#rootCa = rootCa;
    this.#serviceAccounts = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/serviceaccounts'),
      name: 'serviceaccounts',
      log: this.#log,
    });
    this.#secrets = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/secrets'),
      name: 'secrets',
      log: this.#log,
    });
    const key_ = (o: Json): string => `${metaOf(o).namespace ?? ''}/${metaOf(o).name ?? ''}`;
    // queueServiceAccountSync: a deleted account's token Secrets go.
    this.#serviceAccounts.addEventHandler({ onDelete: (o) => this.#enqueue(`sa:${key_(o)}`) });
    const secret = (o: Json): void => {
      if (isTokenSecret(o)) this.#enqueue(`secret:${key_(o)}`);
    };
    this.#secrets.addEventHandler({ onAdd: secret, onUpdate: (_old, o) => secret(o) });
  }

  async run(): Promise<void> {
    const stopped = new Promise<void>((resolve) =>
      this.#abort.signal.addEventListener('abort', () => resolve(), { once: true })
    );
    await Promise.all([this.#serviceAccounts.start(), this.#secrets.start()]);
    void this.#work();
    await stopped;
  }

  stop(): void {
    this.#serviceAccounts.stop();
    this.#secrets.stop();
    this.#abort.abort();
  }

  #enqueue(key: string): void {
    this.#queue.add(key);
    if (this.#serviceAccounts.synced && this.#secrets.synced) void this.#work();
  }

  async #work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      while (this.#queue.size > 0 && !this.#abort.signal.aborted) {
        const key = this.#queue.values().next().value as string;
        this.#queue.delete(key);
        try {
          if (key.startsWith('sa:')) await this.#syncServiceAccountDeleted(key.slice(3));
          else await this.#syncSecret(key.slice(7));
        } catch (err) {
          if (this.#abort.signal.aborted) return;
          if (!isConflict(err)) this.#log.warn('sync failed; retrying', { key, err });
          setTimeout(() => this.#enqueue(key), isConflict(err) ? 200 : 2000).unref();
        }
      }
    } finally {
      this.#working = false;
    }
  }

  /** syncServiceAccount for a deleted account: deleteTokens. */
  async #syncServiceAccountDeleted(saKey: string): Promise<void> {
    if (this.#serviceAccounts.get(saKey)) return; // recreated meanwhile
    for (const s of this.#secrets.list()) {
      if (isTokenSecret(s) && referencedServiceAccount(s).key === saKey) await this.#delete(s);
    }
  }

  /** syncSecret. */
  async #syncSecret(key: string): Promise<void> {
    const secret = this.#secrets.get(key);
    if (!secret || !isTokenSecret(secret)) return;
    const sa = await this.#serviceAccount(secret);
    if (!sa) {
      this.#log.info('deleting token secret of a service account that no longer exists', { key });
      await this.#delete(secret);
      return;
    }
    await this.#generateTokenIfNeeded(secret, sa);
  }

  /**
   * getServiceAccount: the account the Secret names (with the uid it names, if any), from the
   * informer, else from a live read (the informer may not have a new account yet).
   */
  async #serviceAccount(secret: Json): Promise<Json | undefined> {
    const { key, uid } = referencedServiceAccount(secret);
    const matches = (sa: Json | undefined): Json | undefined =>
      sa && (!uid || metaOf(sa).uid === uid) ? sa : undefined;
    const cached = matches(this.#serviceAccounts.get(key));
    if (cached) return cached;
    const [ns = '', name = ''] = key.split('/');
    if (!name) return undefined;
    try {
      return matches(
        await this.#client.request(
          'GET',
          `/api/v1/namespaces/${encodeURIComponent(ns)}/serviceaccounts/${encodeURIComponent(name)}`
        )
      );
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** generateTokenIfNeeded, written to the live Secret at the resourceVersion the informer has. */
  async #generateTokenIfNeeded(cached: Json, sa: Json): Promise<void> {
    const needs = tokenSecretNeeds(cached, this.#rootCa);
    if (!needs.ca && !needs.namespace && !needs.token) return;
    const { namespace = '', name = '' } = metaOf(cached);
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`;
    const live = await this.#client.request('GET', path);
    // The informer is behind: its update event queues the Secret again.
    if (metaOf(live).resourceVersion !== metaOf(cached).resourceVersion) return;
    const data = { ...dataOf(live) };
    if (needs.ca) data['ca.crt'] = encoded(this.#rootCa);
    if (needs.namespace) data['namespace'] = encoded(namespace);
    if (needs.token) {
      const token = await legacyToken(
        this.#key,
        { namespace, name: metaOf(sa).name ?? '', uid: metaOf(sa).uid ?? '' },
        name
      );
      data['token'] = encoded(token);
    }
    const annotations = {
      ...(metaOf(live).annotations ?? {}),
      [serviceAccountNameKey]: metaOf(sa).name ?? '',
      [serviceAccountUidKey]: metaOf(sa).uid ?? '',
    };
    await this.#client.request('PUT', path, {
      ...live,
      metadata: { ...metaOf(live), annotations },
      data,
    });
    this.#log.info('filled service account token secret', { namespace, name });
  }

  /** deleteToken: with the Secret's uid as precondition. */
  async #delete(secret: Json): Promise<void> {
    const { namespace = '', name = '', uid } = metaOf(secret);
    try {
      await this.#client.request(
        'DELETE',
        `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`,
        { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid } }
      );
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return; // gone, or another Secret by now
      throw err;
    }
  }
}
