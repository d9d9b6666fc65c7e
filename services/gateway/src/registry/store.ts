// Over 600 lines on purpose: one class, the generic Store, owns the sequence of every verb and the
// retries around them (k8s store.go is one file too); its verbs share its private helpers.
// The generic Store: the sequence every write follows, for every kind (k8s
// generic/registry/store.go). Strategy hooks run in order, then validation, then the
// validate step the handler bound to the request's attributes (createValidation,
// updateValidation, deleteValidation: admission's validating phase), then storage. Admission's
// mutating phase comes before: in the create handler, and inside an update's update function. Updates re-read and retry on a lost race
// unless the client pinned a resourceVersion. Dry run runs everything but the storage write.
// A kind stored at another version than it is served (def.storageVersion: autoscaling/v1 HPAs
// stored as v2) is converted on the way in and out (convertObjects: the registered conversions
// of built-in kinds, a custom resource's CRD for its objects): its strategy sees and storage
// keeps the storage version, clients and admission see the served one. Conversion may be a
// webhook call, so it is asynchronous and batched: a list is converted in one call, and a
// watcher's changes in order, one after the other.
// It implements every REST role of a stored kind (registry/rest.ts); a subresource writes
// through a copy with its own strategy (withStrategy), never through a branch here.
import {
  StatusError,
  isConflict,
  isNotFound,
  newAlreadyExists,
  newConflict,
  newInvalid,
  newNotFound,
  newSuccess,
  toStatusError,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ListOptions, StorageInterface } from '@orch/apimachinery/storage';
import {
  fillObjectMetaSystemFields,
  wipeObjectMetaSystemFields,
  generateName,
  now,
  validateObjectMeta,
  validateObjectMetaCreate,
  validateObjectMetaUpdate,
  warningsForObjectMeta,
} from '@orch/apimachinery/meta';
import { isDeepStrictEqual } from 'node:util';
import { builtinConversions, storageKey, storagePrefix } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { formatApiVersion } from '@orch/apimachinery/schema';
import type { GroupVersion } from '@orch/apimachinery/schema';
import type { ApiObject } from '@orch/apimachinery/meta';
import { fillGoShape } from './go-shape.js';
import { specChanged } from './strategy.js';
import { cachedJson, goJsonBytes, goJsonOf } from '../watch/cached-json.js';
import type { Cacher } from '../cache/cacher.js';
import type { Cachers } from '../cache/cachers.js';
import type { Change, FeedListener } from '../watch/change.js';
import type {
  CreateOptions,
  DeleteOptions,
  DeleteResult,
  GetOptions,
  ObjectList,
  RestContext,
  StandardStorage,
  UpdateFunc,
  UpdateOptions,
} from './rest.js';
import type { Strategy } from './strategy.js';

const maxConflictRetries = 10;

/** Every REST role of a stored kind (k8s `var _ rest.StandardStorage = &Store{}`). */
export class Store implements StandardStorage {
  readonly def: ResourceDefinition;
  readonly strategy: Strategy;
  readonly #storage: StorageInterface;
  readonly #cachers: Cachers | undefined;
  /** How this kind's stored JSON starts when it can be answered as it is (listJson). */
  readonly #jsonHead: Buffer;
  /** The version objects are stored at, when it is not the served one (else undefined). */
  readonly #storageGV: GroupVersion | undefined;
  /**
   * Whether objects read are converted (convertObjects): when stored at another version, and
   * always for a custom resource, whose objects stay at the version they were written at
   * (any of the CRD's storedVersions) until written again.
   */
  readonly #converts: boolean;
  /**
   * Whether the strategy sees objects at the served version, converted to the storage version
   * only to be written: a custom resource's strategy prunes, defaults and validates by the
   * served version's schema (upstream converts custom resources in the storage codec). Built-in
   * kinds' strategies work on the storage version (upstream's internal version).
   */
  readonly #strategyOnServed: boolean;

  constructor(
    def: ResourceDefinition,
    strategy: Strategy,
    storage: StorageInterface,
    cachers?: Cachers
  ) {
    this.def = def;
    this.strategy = strategy;
    this.#storage = storage;
    this.#cachers = cachers;
    this.#jsonHead = Buffer.from(
      `{"apiVersion":${JSON.stringify(formatApiVersion(def))},"kind":${JSON.stringify(def.kind)},`
    );
    const storageVersion = def.storageVersion ?? def.version;
    this.#storageGV =
      storageVersion === def.version
        ? undefined
        : { group: def.storageGroup ?? def.group, version: storageVersion };
    this.#converts = this.#storageGV !== undefined || def.customResource !== undefined;
    this.#strategyOnServed = def.customResource !== undefined;
  }

  /**
   * The same objects written through another strategy: how a subresource writes (k8s: the
   * StatusREST's copy of the Store with UpdateStrategy = StatusStrategy).
   */
  withStrategy(strategy: Strategy): Store {
    return new Store(this.def, strategy, this.#storage, this.#cachers);
  }

  get objectKind(): ResourceDefinition {
    return this.def;
  }

  get listKind(): string {
    return this.def.listKind;
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

  /**
   * Objects (never mutated), each labelled with the version it is stored at, converted to
   * another version of their kind, in one call: the registered conversions of the built-in
   * kinds (k8s runtime.Scheme); a custom resource's Store converts by its CRD instead.
   */
  protected convertObjects(
    objs: readonly Record<string, unknown>[],
    to: GroupVersion
  ): Promise<Record<string, unknown>[]> {
    return Promise.resolve(objs.map((o) => builtinConversions.convert(o, to)));
  }

  /**
   * The apiVersion of the version a stored object is at: the storage version. A custom
   * resource's Store reads it from the object (it may be at an older stored version).
   */
  protected storedApiVersion(_obj: Record<string, unknown>): string {
    return formatApiVersion(this.#storageGV ?? this.def);
  }

  /** An object from storage (fresh, so labelled in place) in the served version. */
  #out(obj: Record<string, unknown>): ApiObject {
    obj['apiVersion'] = formatApiVersion(this.def);
    obj['kind'] = this.def.kind;
    return obj as ApiObject;
  }

  /**
   * An object from the cache, in the served version: shared with the cache and its watchers,
   * so never mutated (a shallow copy when apiVersion or kind differ).
   */
  #served(obj: Record<string, unknown>): ApiObject {
    const apiVersion = formatApiVersion(this.def);
    if (obj['apiVersion'] === apiVersion && obj['kind'] === this.def.kind) return obj as ApiObject;
    return { ...(obj as ApiObject), apiVersion, kind: this.def.kind };
  }

  /** A stored object (never mutated), copied and labelled with the version it is at. */
  #asStored(obj: Record<string, unknown>): ApiObject {
    return {
      ...(obj as ApiObject),
      apiVersion: this.storedApiVersion(obj),
      kind: this.def.kind,
    };
  }

  /** Stored objects (never mutated) converted to the served version, in one call. */
  async #convertedAll(objs: readonly Record<string, unknown>[]): Promise<ApiObject[]> {
    if (objs.length === 0) return [];
    const stored = objs.map((o) => this.#asStored(o));
    return (await this.convertObjects(stored, this.def)) as ApiObject[];
  }

  /** Objects from storage (fresh) in the served version. */
  async #outAll(objs: Record<string, unknown>[]): Promise<ApiObject[]> {
    if (!this.#converts) return objs.map((o) => this.#out(o));
    return this.#convertedAll(objs);
  }

  /** Objects from the cache (shared, never mutated) in the served version. */
  async #servedAll(objs: readonly Record<string, unknown>[]): Promise<ApiObject[]> {
    if (!this.#converts) return objs.map((o) => this.#served(o));
    return this.#convertedAll(objs);
  }

  /** One object from storage in the served version. */
  async #outOne(obj: Record<string, unknown>): Promise<ApiObject> {
    if (!this.#converts) return this.#out(obj);
    return (await this.#convertedAll([obj]))[0]!;
  }

  /** An object of the served version at the storage version (itself when they are one). */
  async #toStorage(obj: ApiObject): Promise<ApiObject> {
    if (!this.#storageGV) return obj;
    const served = { ...obj, apiVersion: formatApiVersion(this.def), kind: this.def.kind };
    return (await this.convertObjects([served], this.#storageGV))[0] as ApiObject;
  }

  /** A storage read as stored (for writing back) and as served (for clients and admission). */
  async #read(obj: Record<string, unknown>): Promise<{ stored: ApiObject; served: ApiObject }> {
    if (!this.#converts) {
      const served = this.#out(obj);
      return { stored: served, served };
    }
    return { stored: this.#asStored(obj), served: await this.#outOne(obj) };
  }

  /** The type's watch cache, when the gateway has them. */
  get #cacher(): Cacher | undefined {
    return this.#cachers?.for(this.def);
  }

  /**
   * A private copy of the object at `key` in the type's watch cache (started by a first update
   * as by a first read), for an update's first attempt; undefined when the cache is not synced
   * or does not hold it.
   */
  #cachedCopy(key: string): Record<string, unknown> | undefined {
    const cacher = this.#cacher?.start();
    if (!cacher?.cache.synced) return undefined;
    const obj = cacher.cache.getByKey(key);
    return obj ? structuredClone(obj) : undefined;
  }

  /**
   * A GET: from the watch cache when it serves the read's consistency (resourceVersion "0",
   * not older than, or consistent once the cache reached storage's current revision), otherwise
   * from storage. The object is the cache's: callers must not mutate it.
   */
  async get(ctx: RestContext, name: string, opts: GetOptions): Promise<ApiObject> {
    const key = this.key(ctx.namespace, name);
    const cacher = this.#cacher;
    if (cacher && (await cacher.serves(opts.consistency, opts.revision))) {
      return (await this.#servedAll([cacher.get(key)]))[0]!;
    }
    return this.#outOne(await this.#storage.get(key, opts.consistency, opts.revision ?? 0));
  }

  async create(ctx: RestContext, served: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    let obj: ApiObject;
    let checked: ApiObject;
    if (this.#strategyOnServed) {
      this.#beforeCreate(served, ctx);
      obj = await this.#toStorage(served);
      checked = served;
    } else {
      obj = await this.#toStorage(served);
      this.#beforeCreate(obj, ctx);
      checked = this.#storageGV ? await this.#outOne(obj) : obj;
    }
    for (const w of warningsForObjectMeta(obj.metadata)) opts.warn?.(w);
    await opts.createValidation?.(checked, undefined);
    const key = this.key(obj.metadata.namespace, obj.metadata.name ?? '');
    if (opts.dryRun) {
      try {
        await this.#storage.get(key, 'MOST_RECENT');
        throw newAlreadyExists(this.groupResource, obj.metadata.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return checked;
    }
    return this.#outOne(await this.#storage.create(key, obj));
  }

  /**
   * The guaranteed-update loop: read, compute, write with the read revision as precondition,
   * again on a lost race, unless the desired object pins a resourceVersion (then 409).
   * The first attempt starts from a copy of the object in the type's watch cache when it holds
   * it (upstream's cacher.GuaranteedUpdate hands it over as cachedExistingObject), without a
   * storage read. The write is conditional on the copy's revision, so a stale copy is never
   * written over a newer object: whatever fails on a copy (a lost race, a pinned resourceVersion
   * the copy has not reached, an error of the update function, a validation) and a write that
   * would change nothing are tried again from storage's current object, as upstream refreshes
   * its state when it was not read from etcd. Dry runs always read storage.
   */
  async update(
    ctx: RestContext,
    name: string,
    updateFn: UpdateFunc,
    opts: UpdateOptions
  ): Promise<{ object: ApiObject; created: boolean }> {
    const key = this.key(ctx.namespace, name);
    const warnings = new Set<string>();
    const warned = <T>(result: T): T => {
      for (const w of warnings) opts.warn?.(w);
      return result;
    };
    let fromCacheFirst = !opts.dryRun;
    for (let attempt = 0; ; attempt++) {
      let current: ApiObject | undefined;
      let stored: ApiObject | undefined;
      const cached = fromCacheFirst ? this.#cachedCopy(key) : undefined;
      fromCacheFirst = false;
      try {
        const read = await this.#read(cached ?? (await this.#storage.get(key, 'MOST_RECENT')));
        ({ stored, served: current } = read);
        fillGoShape(this.def, current);
        if (stored !== current) fillGoShape(this.def, stored);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (!current || !stored) {
        // forceAllowCreate decides when given (apply creates, PATCH never does; k8s
        // forceAllowCreate), else the strategy's AllowCreateOnUpdate.
        if (!(opts.forceAllowCreate ?? this.strategy.allowCreateOnUpdate)) {
          throw newNotFound(this.groupResource, name);
        }
        const desired = await updateFn(undefined);
        if (desired.metadata.resourceVersion) {
          throw newConflict(
            this.groupResource,
            name,
            'the object has been deleted or its resourceVersion does not match'
          );
        }
        const { dryRun, createValidation, warn } = opts;
        const createOpts = { dryRun, createValidation, warn };
        const created = await this.create(ctx, desired, createOpts);
        return { object: created, created: true };
      }
      let pinned: string | undefined;
      let writing = false;
      try {
        const desired = await updateFn(structuredClone(current));
        pinned = desired.metadata.resourceVersion;
        if (pinned && pinned !== current.metadata.resourceVersion) {
          throw newConflict(
            this.groupResource,
            name,
            'the object has been modified; please apply your changes to the latest version and try again'
          );
        }
        let next: ApiObject;
        let nextServed: ApiObject;
        if (this.#strategyOnServed) {
          nextServed = this.#beforeUpdate(desired, current);
          next = await this.#toStorage(nextServed);
        } else {
          next = this.#beforeUpdate(await this.#toStorage(desired), stored);
          nextServed = this.#storageGV ? await this.#outOne(next) : next;
        }
        for (const w of warningsForObjectMeta(next.metadata)) warnings.add(w);
        await opts.updateValidation?.(nextServed, current);
        const revision = Number(current.metadata.resourceVersion);
        if (opts.dryRun) return warned({ object: nextServed, created: false });
        // Semantic equality, whatever the order of keys (upstream's Semantic.DeepEqual): a write
        // that changes nothing (its managedFields included) is not stored; said only of storage's
        // current object, not of a cached copy.
        if (isDeepStrictEqual(next, stored)) {
          if (cached) continue;
          return warned({ object: current, created: false });
        }
        writing = true;
        if (next.metadata.deletionTimestamp && this.#blockingFinalizers(next).length === 0) {
          // The last finalizer is gone: the object goes (k8s ShouldDeleteDuringUpdate).
          await this.#storage.delete(key, { revision });
          return warned({ object: nextServed, created: false });
        }
        const written = await this.#outOne(await this.#storage.update(key, next, { revision }));
        return warned({ object: written, created: false });
      } catch (err) {
        if (cached) continue; // computed from a copy that may be stale: again from storage
        if (writing && isConflict(err) && !pinned && attempt < maxConflictRetries) continue;
        throw err;
      }
    }
  }

  /**
   * Delete (k8s Store.Delete with updateForGracefulDeletionAndFinalizers): the preconditions
   * are checked, the garbage collector's finalizers (`orphan`, `foregroundDeletion`) are set as
   * the options and the kind's default policy ask (deletionFinalizersForGarbageCollection); an
   * object left with finalizers is marked (deletionTimestamp, deletionGracePeriodSeconds 0,
   * generation raised on the first mark) and stays until the last is removed; others are
   * removed now. No kind here deletes gracefully (there is no kubelet), so gracePeriodSeconds
   * never delays a removal. Answers the marked object, or a Success Status once removed.
   */
  async delete(ctx: RestContext, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const key = this.key(ctx.namespace, name);
    const left = (object: ApiObject): DeleteResult => ({
      object,
      code: opts.orphanDependents === false ? 202 : 200,
    });
    for (let attempt = 0; ; attempt++) {
      const read = await this.#read(await this.#storage.get(key, 'MOST_RECENT'));
      const current = read.served;
      const pre = opts.preconditions;
      if (pre?.uid && pre.uid !== current.metadata.uid) {
        throw newConflict(
          this.groupResource,
          name,
          `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid ?? ''}`
        );
      }
      if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
        throw newConflict(
          this.groupResource,
          name,
          `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`
        );
      }
      await opts.deleteValidation?.(current, undefined);
      const revision = Number(current.metadata.resourceVersion);
      const finalizers = deletionFinalizersForGarbageCollection(
        current.metadata.finalizers ?? [],
        opts,
        this.strategy.defaultGarbageCollectionPolicy ?? 'DeleteDependents'
      );
      try {
        const marked = structuredClone(read.stored);
        if (finalizers) marked.metadata.finalizers = finalizers;
        if (this.#blockingFinalizers(marked).length > 0) {
          if (!marked.metadata.deletionTimestamp) {
            // k8s markAsDeleting: generation raised once, the timestamp set once.
            if ((marked.metadata.generation ?? 0) > 0) {
              marked.metadata.generation = (marked.metadata.generation ?? 0) + 1;
            }
            marked.metadata.deletionTimestamp = now();
            this.strategy.prepareForGracefulDelete?.(marked);
          }
          marked.metadata.deletionGracePeriodSeconds = 0;
          if (opts.dryRun || isDeepStrictEqual(marked, read.stored))
            return left(this.#storageGV ? await this.#outOne(marked) : marked);
          return left(await this.#outOne(await this.#storage.update(key, marked, { revision })));
        }
        if (!opts.dryRun) await this.#storage.delete(key, { revision });
        // k8s finalizeDelete (dry run included): the object, or a Success Status without a code.
        if (this.strategy.returnDeletedObject) return { object: current, code: 200 };
        const details = {
          name,
          group: this.def.group,
          kind: this.def.resource,
          uid: current.metadata.uid ?? '',
        };
        return { object: { ...newSuccess(details), code: 0 }, code: 200 };
      } catch (err) {
        if (isConflict(err) && !pre?.resourceVersion && attempt < maxConflictRetries) continue;
        throw err;
      }
    }
  }

  #blockingFinalizers(obj: ApiObject): string[] {
    return [...(obj.metadata.finalizers ?? []), ...(this.strategy.pendingFinalizers?.(obj) ?? [])];
  }

  /** System fields, strategy, validation (k8s rest.BeforeCreate). */
  #beforeCreate(obj: ApiObject, ctx: RestContext): void {
    const meta = obj.metadata;
    // A client's resourceVersion is refused, so it is checked before the system fields are set.
    const rvErrs = validateObjectMetaCreate(meta);
    if (!meta.name && typeof meta.generateName === 'string' && meta.generateName) {
      meta.name = generateName(meta.generateName);
    }
    wipeObjectMetaSystemFields(meta);
    fillObjectMetaSystemFields(meta);
    meta.generation = 1;
    delete meta.resourceVersion;
    if (!this.def.namespaced) delete meta.namespace;
    this.strategy.prepareForCreate(obj, ctx);
    const errs = [...rvErrs, ...this.#validateMeta(obj), ...this.strategy.validate(obj)];
    if (errs.length > 0) throw this.#invalid(meta, errs);
    fillGoShape(this.def, obj);
  }

  /** Immutable metadata is carried over, generation follows spec changes (k8s rest.BeforeUpdate). */
  #beforeUpdate(next: ApiObject, old: ApiObject): ApiObject {
    this.strategy.prepareForUpdate(next, old);
    fillGoShape(this.def, next);
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
    meta.generation = !this.strategy.keepsGeneration && specChanged(next, old) ? gen + 1 : gen;
    const errs: FieldError[] = [
      ...this.#validateMeta(next, old),
      ...this.strategy.validateUpdate(next, old),
    ];
    if (errs.length > 0) throw this.#invalid(meta, errs);
    return next;
  }

  #invalid(meta: ApiObject['metadata'], errs: FieldError[]): Error {
    return newInvalid({ group: this.def.group, kind: this.def.kind }, nameOf(meta), errs);
  }

  /** k8s ValidateObjectMeta; on update also ValidateObjectMetaUpdate (validateCommonFields). */
  #validateMeta(obj: ApiObject, old?: ApiObject): FieldError[] {
    const opts = { namespaced: this.def.namespaced, nameRule: this.strategy.nameRule };
    const errs = validateObjectMeta(obj.metadata, opts);
    if (!old) return errs;
    // Both run the common checks (labels, ...): each error is reported once.
    const seen = new Set(errs.map((e) => JSON.stringify(e)));
    const more = validateObjectMetaUpdate(obj.metadata, old.metadata);
    return [...errs, ...more.filter((e) => !seen.has(JSON.stringify(e)))];
  }

  /**
   * A list: from the watch cache when it serves the read (as get), or when a continue token or
   * an Exact revision names a snapshot the cache still holds; otherwise from storage. Pages,
   * tokens, selectors and the list's revision are the same either way.
   */
  async list(ctx: RestContext, opts: Omit<ListOptions, 'prefix'>): Promise<ObjectList<ApiObject>> {
    const prefix = this.prefix(ctx.namespace);
    const cached = await this.#cacher?.list(prefix, opts);
    if (cached) return { ...cached, items: await this.#servedAll(cached.items) };
    const res = await this.#storage.list({ prefix, ...opts });
    return { ...res, items: await this.#outAll(res.items) };
  }

  /**
   * The same list with each item as JSON bytes, for answers written as they are: an item whose
   * stored bytes do not start with this kind's apiVersion and kind is parsed and written again.
   */
  async listJson(ctx: RestContext, opts: Omit<ListOptions, 'prefix'>): Promise<ObjectList<Buffer>> {
    const prefix = this.prefix(ctx.namespace);
    const cached = await this.#cacher?.list(prefix, opts);
    if (cached) {
      // The cache's own objects (served as they are) keep their bytes from list to list.
      const items = await this.#servedAll(cached.items);
      return { ...cached, items: items.map(cachedJson) };
    }
    if (this.#converts) {
      const res = await this.#storage.list({ prefix, ...opts });
      const items = await this.#outAll(res.items);
      return { ...res, items: items.map(goJsonOf) };
    }
    const res = await this.#storage.listRaw({ prefix, ...opts });
    const head = this.#jsonHead;
    const items = res.items.map((b) => {
      const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
      return buf.subarray(0, head.length).equals(head)
        ? goJsonBytes(buf)
        : goJsonOf(this.#out(JSON.parse(buf.toString('utf8')) as Record<string, unknown>));
    });
    return { ...res, items };
  }

  /** The objects the selectors pick, deleted one by one (those gone meanwhile skipped); the list. */
  async deleteCollection(
    ctx: RestContext,
    opts: DeleteOptions,
    listOpts: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>
  ): Promise<ObjectList<ApiObject>> {
    const items = await this.list(ctx, { consistency: 'MOST_RECENT', ...listOpts });
    for (const item of items.items) {
      try {
        const itemCtx = { ...ctx, namespace: item.metadata.namespace };
        await this.delete(itemCtx, item.metadata.name ?? '', opts);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return items;
  }

  /** This type's changes after fromRevision, to the listener, from the watch cache. */
  async watch(
    _ctx: RestContext,
    listener: FeedListener,
    fromRevision: number
  ): Promise<() => void> {
    const cacher = this.#cacher;
    if (!cacher) throw new Error(`${this.def.resource} has no watch cache`);
    if (!this.#converts) return cacher.watch(listener, fromRevision);
    return cacher.watch(this.#converting(listener), fromRevision);
  }

  /**
   * A watcher's listener behind conversion: each change converted to the served version before
   * the watcher filters and writes it, in the order they came (conversion may be a webhook
   * call); a conversion that fails ends the watch with its Status, as upstream's watch decoder.
   */
  #converting(listener: FeedListener): FeedListener {
    let queue = Promise.resolve();
    let failed = false;
    const next = (step: () => Promise<void> | void): void => {
      queue = queue.then(async () => {
        if (failed) return;
        try {
          await step();
        } catch (err) {
          failed = true;
          listener.fail((err instanceof StatusError ? err : toStatusError(err)).status);
        }
      });
    };
    return {
      change: (c: Change) =>
        next(async () => {
          const objs = c.prevObject ? [c.object, c.prevObject] : [c.object];
          const [object, prevObject] = await this.#convertedAll(objs);
          listener.change({
            ...c,
            // One converted object per stored one: `object` is there.
            object: object as ApiObject,
            ...(prevObject ? { prevObject } : {}),
          });
        }),
      progress: (revision) => next(() => listener.progress(revision)),
      fail: (status) => next(() => listener.fail(status)),
    };
  }
}

/** metav1.FinalizerOrphanDependents. */
export const finalizerOrphanDependents = 'orphan';
/** metav1.FinalizerDeleteDependents. */
export const finalizerDeleteDependents = 'foregroundDeletion';

type GcPolicy = NonNullable<Strategy['defaultGarbageCollectionPolicy']>;
type GcOptions = Pick<DeleteOptions, 'propagationPolicy' | 'orphanDependents'>;

/** k8s shouldOrphanDependents: options, then the object's finalizers, then the kind's default. */
function shouldOrphan(finalizers: readonly string[], opts: GcOptions, policy: GcPolicy): boolean {
  if (policy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Orphan';
  for (const f of finalizers) {
    if (f === finalizerOrphanDependents) return true;
    if (f === finalizerDeleteDependents) return false;
  }
  return policy === 'OrphanDependents';
}

/** k8s shouldDeleteDependents: Foreground asked by the options or kept from the finalizers. */
function shouldDeleteInForeground(
  finalizers: readonly string[],
  opts: GcOptions,
  policy: GcPolicy
): boolean {
  if (policy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === finalizerDeleteDependents) return true;
    if (f === finalizerOrphanDependents) return false;
  }
  return false;
}

/**
 * k8s deletionFinalizersForGarbageCollection: the object's finalizers with `orphan` and
 * `foregroundDeletion` set as the delete asks, or undefined when they stay as they are.
 */
export function deletionFinalizersForGarbageCollection(
  finalizers: readonly string[],
  opts: GcOptions,
  policy: GcPolicy
): string[] | undefined {
  const next = finalizers.filter(
    (f) => f !== finalizerOrphanDependents && f !== finalizerDeleteDependents
  );
  if (shouldOrphan(finalizers, opts, policy)) next.push(finalizerOrphanDependents);
  if (shouldDeleteInForeground(finalizers, opts, policy)) next.push(finalizerDeleteDependents);
  const before = new Set(finalizers);
  const after = new Set(next);
  if (before.size === after.size && [...after].every((f) => before.has(f))) return undefined;
  return next;
}

/** The name for an Invalid Status: the object's name when it is a string. */
const nameOf = (meta: ApiObject['metadata']): string =>
  typeof meta.name === 'string' ? meta.name : '';
