// The gateway's watch fan-out: at most one TypeFeed (one NATS subscription) per resource type.
import type { NatsConnection } from 'nats';
import type { StorageClient } from '@orch/apimachinery/grpc';
import { storagePrefix } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { subjectForKey } from '@orch/apimachinery/watch';
import type { Logger } from '@orch/component-base/logs';
import { TypeFeed } from './type-feed.js';
import type { FeedHooks } from './type-feed.js';

export class Fanout {
  readonly #feeds = new Map<string, TypeFeed>();
  readonly #nats: NatsConnection;
  readonly #storage: StorageClient;
  readonly #log: Logger;
  readonly #hooks: FeedHooks;

  constructor(nats: NatsConnection, storage: StorageClient, log: Logger, hooks: FeedHooks = {}) {
    this.#nats = nats;
    this.#storage = storage;
    this.#log = log;
    this.#hooks = hooks;
  }

  feedFor(def: ResourceDefinition): TypeFeed {
    const prefix = storagePrefix(def);
    let feed = this.#feeds.get(prefix);
    if (!feed) {
      const subject = subjectForKey(`${prefix}x`);
      if (!subject) throw new Error(`no watch subject for ${prefix}`);
      feed = new TypeFeed(subject, prefix, this.#storage, this.#log, this.#hooks);
      feed.start(this.#nats);
      this.#feeds.set(prefix, feed);
    }
    return feed;
  }

  openWatchCount(): number {
    let n = 0;
    for (const f of this.#feeds.values()) n += f.listenerCount;
    return n;
  }

  stop(): void {
    for (const f of this.#feeds.values()) f.stop();
    this.#feeds.clear();
  }
}
