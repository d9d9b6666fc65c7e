// The token cleaner (upstream pkg/controller/bootstrap/tokencleaner.go): a bootstrap token
// secret of orch-system is deleted (with its uid as precondition) once its expiration has
// passed; one not yet expired is looked at again when it expires. Authentication already
// refuses expired tokens and the bootstrap signer ignores them; this removes them.
import type { RestClient } from '@orch/apimachinery/client';
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';
import { QueueController } from '../queue-controller.js';
import { bootstrapTokenNamespace, expiresInMs, isBootstrapTokenSecret } from './token-secret.js';

type Obj = Record<string, unknown>;

export interface TokenCleanerOptions {
  client: RestClient;
  log: Logger;
  now?: () => Date;
}

export class TokenCleaner {
  readonly controller: QueueController;
  readonly #o: TokenCleanerOptions;
  readonly #log: Logger;
  readonly #timers = new Map<string, NodeJS.Timeout>();

  constructor(o: TokenCleanerOptions) {
    this.#o = o;
    this.#log = o.log.child({ controller: 'tokencleaner' });
    this.controller = new QueueController({
      name: 'tokencleaner',
      client: o.client,
      path: `/api/v1/namespaces/${bootstrapTokenNamespace}/secrets`,
      log: o.log,
      filter: isBootstrapTokenSecret,
      sync: (key, obj) => this.handle(key, obj),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    try {
      await this.controller.run(signal);
    } finally {
      for (const t of this.#timers.values()) clearTimeout(t);
    }
  }

  /** One pass over a secret; 'deleted', 'waiting' (not yet expired) or 'ignored'. */
  async handle(key: string, secret: Obj | undefined): Promise<'deleted' | 'waiting' | 'ignored'> {
    const timer = this.#timers.get(key);
    if (timer) clearTimeout(timer);
    this.#timers.delete(key);
    if (!secret || !isBootstrapTokenSecret(secret)) return 'ignored';
    const ttl = expiresInMs(secret, this.#o.now?.() ?? new Date());
    if (ttl === undefined) return 'ignored';
    if (ttl > 0) {
      const t = setTimeout(() => this.controller.enqueue(key), Math.min(ttl + 10, 2 ** 31 - 1));
      this.#timers.set(key, t);
      return 'waiting';
    }
    const meta = secret['metadata'] as { name: string; uid?: string };
    try {
      await this.#o.client.request(
        'DELETE',
        `/api/v1/namespaces/${bootstrapTokenNamespace}/secrets/${encodeURIComponent(meta.name)}`,
        { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: meta.uid } }
      );
      this.#log.info('deleted expired bootstrap token secret', { secret: meta.name });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
    return 'deleted';
  }
}
