// The Store of one served version of a custom resource (upstream pkg/registry/customresource
// etcd.go and customresource_handler.go): the generic Store with the custom resource strategy,
// schema defaults set on every object read from storage (upstream defaults when it decodes what
// etcd holds), and creates refused while the CRD is Terminating (upstream's crdHandler).
import { applyDefaults } from '@orch/apimachinery/apiextensions';
import type { JSONSchemaProps } from '@orch/apimachinery/apiextensions';
import { StatusError, newMethodNotSupported } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { formatApiVersion } from '@orch/apimachinery/schema';
import type { GroupVersion } from '@orch/apimachinery/schema';
import type { ListOptions, StorageInterface } from '@orch/apimachinery/storage';
import type { Cachers } from '../../../cache/cachers.js';
import type { Change, FeedListener } from '../../../watch/change.js';
import type { CreateOptions, GetOptions, ObjectList, RestContext } from '../../rest.js';
import { Store } from '../../store.js';
import type { CustomResourceConverter } from '@orch/apimachinery/apiextensions';
import type { Strategy } from '../../strategy.js';
import { isTerminating } from './resource-definitions.js';
import { schemaOf } from './strategy.js';
import { goJsonOf } from '../../../watch/cached-json.js';

/** Whether a schema sets any default (reads are copied and defaulted only then). */
export function hasDefaults(s: JSONSchemaProps | undefined): boolean {
  if (!s || typeof s !== 'object') return false;
  if (s.default !== undefined) return true;
  const items = Array.isArray(s.items) ? s.items : s.items ? [s.items] : [];
  const add = typeof s.additionalProperties === 'object' ? [s.additionalProperties] : [];
  return [...Object.values(s.properties ?? {}), ...items, ...add, ...(s.allOf ?? [])].some(
    hasDefaults
  );
}

export class CustomResourceStore extends Store {
  readonly #storageClient: StorageInterface;
  readonly #cacherSet: Cachers | undefined;
  readonly #schema: JSONSchemaProps | undefined;
  readonly #converter: CustomResourceConverter;

  constructor(
    def: ResourceDefinition,
    strategy: Strategy,
    storage: StorageInterface,
    cachers: Cachers | undefined,
    converter: CustomResourceConverter
  ) {
    super(def, strategy, storage, cachers);
    this.#storageClient = storage;
    this.#cacherSet = cachers;
    this.#converter = converter;
    const schema = schemaOf(def);
    this.#schema = hasDefaults(schema) ? schema : undefined;
  }

  override withStrategy(strategy: Strategy): Store {
    return new CustomResourceStore(
      this.def,
      strategy,
      this.#storageClient,
      this.#cacherSet,
      this.#converter
    );
  }

  /**
   * The version a stored object is at: its own apiVersion when that names a version of the
   * CRD (objects stay at the version they were written at, one of `status.storedVersions`),
   * else the storage version.
   */
  protected override storedApiVersion(obj: Record<string, unknown>): string {
    const crd = this.def.customResource?.crd;
    const apiVersion = obj['apiVersion'];
    if (crd && typeof apiVersion === 'string') {
      const [group, version] = apiVersion.split('/');
      if (group === crd.spec.group && crd.spec.versions.some((v) => v.name === version))
        return apiVersion;
    }
    return super.storedApiVersion(obj);
  }

  /**
   * Objects at another version of the CRD (upstream pkg/apiserver/conversion), by the CRD's
   * converter (@orch/apimachinery apiextensions/conversion); objects all at the version asked for need none.
   */
  protected override convertObjects(
    objs: readonly Record<string, unknown>[],
    to: GroupVersion
  ): Promise<Record<string, unknown>[]> {
    const apiVersion = formatApiVersion(to);
    if (objs.every((o) => o['apiVersion'] === apiVersion)) return Promise.resolve([...objs]);
    return this.#converter(objs, apiVersion);
  }

  /** A read object with the schema's defaults, copied (cache objects are shared). */
  #defaulted<T extends Record<string, unknown>>(obj: T): T {
    if (!this.#schema) return obj;
    const copy = structuredClone(obj);
    applyDefaults(copy, this.#schema);
    return copy;
  }

  override async create(ctx: RestContext, obj: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    const crd = this.def.customResource?.crd;
    if (crd && isTerminating(crd)) {
      const err = newMethodNotSupported(this.groupResource, 'create');
      throw new StatusError({
        ...err.status,
        message: 'create not allowed while custom resource definition is terminating',
      });
    }
    return super.create(ctx, obj, opts);
  }

  override async get(ctx: RestContext, name: string, opts: GetOptions): Promise<ApiObject> {
    return this.#defaulted(await super.get(ctx, name, opts));
  }

  override async list(
    ctx: RestContext,
    opts: Omit<ListOptions, 'prefix'>
  ): Promise<ObjectList<ApiObject>> {
    const res = await super.list(ctx, opts);
    if (!this.#schema) return res;
    return { ...res, items: res.items.map((o) => this.#defaulted(o)) };
  }

  override async listJson(
    ctx: RestContext,
    opts: Omit<ListOptions, 'prefix'>
  ): Promise<ObjectList<Buffer>> {
    if (!this.#schema) return super.listJson(ctx, opts);
    const res = await this.list(ctx, opts);
    return { ...res, items: res.items.map(goJsonOf) };
  }

  override async watch(
    ctx: RestContext,
    listener: FeedListener,
    fromRevision: number
  ): Promise<() => void> {
    if (!this.#schema) return super.watch(ctx, listener, fromRevision);
    const defaulting: FeedListener = {
      change: (c: Change) =>
        listener.change({
          ...c,
          object: this.#defaulted(c.object),
          ...(c.prevObject ? { prevObject: this.#defaulted(c.prevObject) } : {}),
        }),
      progress: (revision) => listener.progress(revision),
      fail: (status) => listener.fail(status),
    };
    return super.watch(ctx, defaulting, fromRevision);
  }
}
