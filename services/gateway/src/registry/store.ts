// The generic Store: the sequence every write follows, for every kind (k8s
// generic/registry/store.go). Strategy hooks run in order, then validation, then the
// admission callback, then storage. Updates re-read and retry on a lost race unless the
// client pinned a resourceVersion. Dry run runs everything but the storage write.
import { randomUUID } from 'node:crypto';
import {
  isConflict,
  isNotFound,
  newAlreadyExists,
  newConflict,
  newInvalid,
  newNotFound,
  newSuccess,
} from '@orch/apimachinery/errors';
import type { FieldError, Status } from '@orch/apimachinery/errors';
import type { StorageClient } from '@orch/apimachinery/grpc';
import {
  generateName,
  validateObjectMeta,
  validateObjectMetaCreate,
  validateObjectMetaUpdate,
  warningsForObjectMeta,
} from '@orch/apimachinery/meta';
import { storageKey, storagePrefix } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { formatApiVersion } from '@orch/apimachinery/schema';
import { sameJson, specChanged } from './strategy.js';
import type { Obj, Strategy } from './strategy.js';

/** A check run after validation and before the write: admission, namespace lifecycle. */
export type ValidateObjectFunc = (obj: Obj, old: Obj | undefined, operation: 'CREATE' | 'UPDATE' | 'DELETE') => Promise<void>;

export interface WriteOptions {
  dryRun: boolean;
  validate?: ValidateObjectFunc;
  /** Receives each warning of the write once (metadata warnings), for `Warning: 299` headers. */
  warn?: (text: string) => void;
}

/** Turns the current object into the desired one (PUT body, patch, status write). */
export type UpdateFunc = (current: Obj | undefined) => Promise<Obj> | Obj;

export interface DeleteOptions extends WriteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
}

const maxConflictRetries = 10;

export class Store {
  readonly def: ResourceDefinition;
  readonly strategy: Strategy;
  readonly #storage: StorageClient;
  /** How this kind's stored JSON starts when it can be answered as it is (listJson). */
  readonly #jsonHead: Buffer;

  constructor(def: ResourceDefinition, strategy: Strategy, storage: StorageClient) {
    this.def = def;
    this.strategy = strategy;
    this.#storage = storage;
    this.#jsonHead = Buffer.from(`{"apiVersion":${JSON.stringify(formatApiVersion(def))},"kind":${JSON.stringify(def.kind)},`);
  }

  get groupResource(): { group: string; resource: string } {
    return { group: this.def.group, resource: this.def.resource };
  }

  key(namespace: string | undefined, name: string): string {
    return storageKey(this.def, namespace, name);
  }

  prefix(namespace: string | undefined): string {
    return storagePrefix(this.def, namespace);
  }

  /** Objects from storage are at their storage version; answer in the served one. */
  #out(obj: Record<string, unknown>): Obj {
    obj['apiVersion'] = formatApiVersion(this.def);
    obj['kind'] = this.def.kind;
    return obj as Obj;
  }

  async get(namespace: string | undefined, name: string, rv: { consistency: 'MOST_RECENT' | 'ANY' | 'NOT_OLDER_THAN'; revision?: number }): Promise<Obj> {
    return this.#out(await this.#storage.get(this.key(namespace, name), rv.consistency, rv.revision ?? 0));
  }

  async create(obj: Obj, opts: WriteOptions): Promise<Obj> {
    this.#beforeCreate(obj);
    for (const w of warningsForObjectMeta(obj.metadata)) opts.warn?.(w);
    await opts.validate?.(obj, undefined, 'CREATE');
    const key = this.key(obj.metadata.namespace, obj.metadata.name ?? '');
    if (opts.dryRun) {
      try {
        await this.#storage.get(key, 'MOST_RECENT');
        throw newAlreadyExists(this.groupResource, obj.metadata.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return obj;
    }
    return this.#out(await this.#storage.create(key, obj));
  }

  /**
   * The guaranteed-update loop: read, compute, write with the read revision as precondition,
   * again on a lost race, unless the desired object pins a resourceVersion (then 409).
   */
  async update(
    namespace: string | undefined,
    name: string,
    updateFn: UpdateFunc,
    opts: WriteOptions & { subresource?: string; forceAllowCreate?: boolean }
  ): Promise<{ object: Obj; created: boolean }> {
    const key = this.key(namespace, name);
    const warnings = new Set<string>();
    const warned = <T>(result: T): T => {
      for (const w of warnings) opts.warn?.(w);
      return result;
    };
    for (let attempt = 0; ; attempt++) {
      let current: Obj | undefined;
      try {
        current = this.#out(await this.#storage.get(key, 'MOST_RECENT'));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (!current) {
        if (opts.subresource || !this.strategy.allowCreateOnUpdate || opts.forceAllowCreate === false) {
          throw newNotFound(this.groupResource, name);
        }
        const desired = await updateFn(undefined);
        if (desired.metadata.resourceVersion) {
          throw newConflict(this.groupResource, name, 'the object has been deleted or its resourceVersion does not match');
        }
        return { object: await this.create(desired, opts), created: true };
      }
      const desired = await updateFn(structuredClone(current));
      const pinned = desired.metadata.resourceVersion;
      if (pinned && pinned !== current.metadata.resourceVersion) {
        throw newConflict(this.groupResource, name, 'the object has been modified; please apply your changes to the latest version and try again');
      }
      const next = this.#beforeUpdate(desired, current, opts.subresource);
      for (const w of warningsForObjectMeta(next.metadata)) warnings.add(w);
      await opts.validate?.(next, current, 'UPDATE');
      const revision = Number(current.metadata.resourceVersion);
      if (opts.dryRun) return warned({ object: next, created: false });
      if (sameJson(next, current)) return warned({ object: current, created: false });
      try {
        if (next.metadata.deletionTimestamp && this.#blockingFinalizers(next).length === 0) {
          // The last finalizer is gone: the object goes (k8s ShouldDeleteDuringUpdate).
          await this.#storage.delete(key, { revision });
          return warned({ object: next, created: false });
        }
        const stored = this.#out(await this.#storage.update(key, next, { revision }));
        return warned({ object: stored, created: false });
      } catch (err) {
        if (isConflict(err) && !pinned && attempt < maxConflictRetries) continue;
        throw err;
      }
    }
  }

  /**
   * Delete: objects with finalizers are marked (deletionTimestamp) and stay until the last
   * finalizer is removed; others are removed now. Answers the marked object, or a Success Status.
   */
  async delete(namespace: string | undefined, name: string, opts: DeleteOptions): Promise<{ object: Obj | Status; code: number }> {
    const key = this.key(namespace, name);
    for (let attempt = 0; ; attempt++) {
      const current = this.#out(await this.#storage.get(key, 'MOST_RECENT'));
      const pre = opts.preconditions;
      if (pre?.uid && pre.uid !== current.metadata.uid) {
        throw newConflict(this.groupResource, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
        throw newConflict(this.groupResource, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`);
      }
      await opts.validate?.(current, current, 'DELETE');
      const revision = Number(current.metadata.resourceVersion);
      try {
        if (this.#blockingFinalizers(current).length > 0) {
          if (current.metadata.deletionTimestamp) return { object: current, code: 202 };
          const marked = structuredClone(current);
          marked.metadata.deletionTimestamp = now();
          marked.metadata.deletionGracePeriodSeconds = 0;
          this.strategy.prepareForGracefulDelete?.(marked);
          if (opts.dryRun) return { object: marked, code: 202 };
          return { object: this.#out(await this.#storage.update(key, marked, { revision })), code: 202 };
        }
        if (opts.dryRun) return { object: current, code: 200 };
        await this.#storage.delete(key, { revision });
        return {
          object: newSuccess({ name, group: this.def.group, kind: this.def.resource, uid: current.metadata.uid ?? '' }),
          code: 200,
        };
      } catch (err) {
        if (isConflict(err) && !pre?.resourceVersion && attempt < maxConflictRetries) continue;
        throw err;
      }
    }
  }

  #blockingFinalizers(obj: Obj): string[] {
    return [...(obj.metadata.finalizers ?? []), ...(this.strategy.pendingFinalizers?.(obj) ?? [])];
  }

  /** System fields, strategy, validation (k8s rest.BeforeCreate). */
  #beforeCreate(obj: Obj): void {
    const meta = obj.metadata;
    // A client's resourceVersion is refused, so it is checked before the system fields are set.
    const rvErrs = validateObjectMetaCreate(meta);
    if (!meta.name && typeof meta.generateName === 'string' && meta.generateName) {
      meta.name = generateName(meta.generateName);
    }
    meta.uid = randomUUID();
    meta.creationTimestamp = now();
    meta.generation = 1;
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (!this.def.namespaced) delete meta.namespace;
    this.strategy.prepareForCreate(obj);
    const errs = [...rvErrs, ...this.#validateMeta(obj), ...this.strategy.validate(obj)];
    if (errs.length > 0) throw this.#invalid(meta, errs);
  }

  /** Immutable metadata is carried over, generation follows spec changes (k8s rest.BeforeUpdate). */
  #beforeUpdate(desired: Obj, old: Obj, subresource: string | undefined): Obj {
    let next: Obj;
    if (subresource === 'status') {
      next = structuredClone(old);
      if (desired['status'] === undefined) delete next['status'];
      else next['status'] = desired['status'];
    } else if (subresource === 'finalize') {
      next = structuredClone(old);
      const spec = (desired['spec'] ?? {}) as { finalizers?: unknown };
      next['spec'] = { ...((old['spec'] as object | undefined) ?? {}), finalizers: Array.isArray(spec.finalizers) ? spec.finalizers : [] };
    } else {
      next = desired;
      this.strategy.prepareForUpdate(next, old);
    }
    const meta = next.metadata;
    // As upstream's BeforeUpdate: a uid is kept when the client sent none (a different one is
    // refused as immutable), creationTimestamp and a set deletionTimestamp always carried over.
    if (!meta.uid) meta.uid = old.metadata.uid;
    meta.creationTimestamp = old.metadata.creationTimestamp;
    meta.resourceVersion = old.metadata.resourceVersion;
    if (old.metadata.deletionTimestamp) meta.deletionTimestamp = old.metadata.deletionTimestamp;
    const grace = old.metadata.deletionGracePeriodSeconds;
    if (grace !== undefined && meta.deletionGracePeriodSeconds == null) {
      meta.deletionGracePeriodSeconds = grace;
    }
    if (meta.generateName === undefined) delete meta.generateName;
    const gen = old.metadata.generation ?? 1;
    meta.generation = subresource === undefined && specChanged(next, old) ? gen + 1 : gen;
    const errs: FieldError[] = [
      ...this.#validateMeta(next, old),
      ...this.strategy.validateUpdate(next, old),
    ];
    if (errs.length > 0) throw this.#invalid(meta, errs);
    return next;
  }

  #invalid(meta: Obj['metadata'], errs: FieldError[]): Error {
    return newInvalid({ group: this.def.group, kind: this.def.kind }, nameOf(meta), errs);
  }

  /** k8s ValidateObjectMeta; on update also ValidateObjectMetaUpdate (validateCommonFields). */
  #validateMeta(obj: Obj, old?: Obj): FieldError[] {
    const opts = { namespaced: this.def.namespaced, nameRule: this.strategy.nameRule };
    const errs = validateObjectMeta(obj.metadata, opts);
    if (!old) return errs;
    // Both run the common checks (labels, ...): each error is reported once.
    const seen = new Set(errs.map((e) => JSON.stringify(e)));
    const more = validateObjectMetaUpdate(obj.metadata, old.metadata);
    return [...errs, ...more.filter((e) => !seen.has(JSON.stringify(e)))];
  }

  list = async (req: Parameters<StorageClient['list']>[0]): Promise<{ items: Obj[]; revision: number; continueToken: string; remainingItemCount: number }> => {
    const res = await this.#storage.list(req);
    return { ...res, items: res.items.map((o) => this.#out(o)) };
  };

  /**
   * The same list with each item as JSON bytes, for answers written as they are: an item whose
   * stored bytes do not start with this kind's apiVersion and kind is parsed and written again.
   */
  listJson = async (req: Parameters<StorageClient['list']>[0]): Promise<{ items: Buffer[]; revision: number; continueToken: string; remainingItemCount: number }> => {
    const res = await this.#storage.listRaw(req);
    const head = this.#jsonHead;
    const items = res.items.map((b) => {
      const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
      return buf.subarray(0, head.length).equals(head) ? buf : Buffer.from(JSON.stringify(this.#out(JSON.parse(buf.toString('utf8')) as Record<string, unknown>)));
    });
    return { ...res, items };
  };

}

/** The name for an Invalid Status: the object's name when it is a string. */
const nameOf = (meta: Obj['metadata']): string => (typeof meta.name === 'string' ? meta.name : '');

export function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}
