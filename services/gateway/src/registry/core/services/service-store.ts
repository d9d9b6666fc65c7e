// The Store of Services: the generic Store with upstream's service REST hooks around it
// (pkg/registry/core/service/storage/storage.go: beginCreate, beginUpdate, afterDelete). Cluster
// IPs and node ports are handed out before the write and given back when it fails; what an
// update drops, and all a deleted Service held, is given back once the write is done.
import type { StorageInterface } from '@orch/apimachinery/storage';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { Cachers } from '../../../cache/cachers.js';
import type {
  CreateOptions,
  DeleteOptions,
  DeleteResult,
  RestContext,
  UpdateFunc,
  UpdateOptions,
} from '../../rest.js';
import { Store } from '../../store.js';
import type { Strategy } from '../../strategy.js';
import type { AllocationTxn, ServiceAllocator } from './service-allocator.js';

export class ServiceStore extends Store {
  readonly #alloc: ServiceAllocator;

  constructor(
    def: ResourceDefinition,
    strategy: Strategy,
    storage: StorageInterface,
    cachers: Cachers | undefined,
    alloc: ServiceAllocator
  ) {
    super(def, strategy, storage, cachers);
    this.#alloc = alloc;
  }

  override async create(ctx: RestContext, obj: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    // An object the strategy refuses is refused as the generic Store does (with its metadata's
    // errors), before anything is handed out.
    this.strategy.prepareForCreate(obj);
    if (this.strategy.validate(obj).length > 0) return super.create(ctx, obj, opts);
    const txn = await this.#alloc.allocateCreate(obj, opts.dryRun === true);
    return this.#finish(txn, () => super.create(ctx, obj, opts));
  }

  override async update(
    ctx: RestContext,
    name: string,
    updateFn: UpdateFunc,
    opts: UpdateOptions
  ): Promise<{ object: ApiObject; created: boolean }> {
    let txn: AllocationTxn | undefined;
    const allocating: UpdateFunc = async (old) => {
      const desired = await updateFn(old);
      // A retry after a lost race starts over: what the last attempt took goes back.
      await txn?.revert();
      txn = undefined;
      if (!old) return desired; // created: this.create hands out
      this.strategy.prepareForUpdate(desired, old);
      if (this.strategy.validateUpdate(desired, old).length > 0) return desired;
      txn = await this.#alloc.allocateUpdate(desired, old, opts.dryRun === true);
      return desired;
    };
    try {
      const out = await super.update(ctx, name, allocating, opts);
      await txn?.commit();
      // The last finalizer gone: the update removed the Service.
      const m = out.object.metadata;
      if (!opts.dryRun && m.deletionTimestamp && (m.finalizers ?? []).length === 0)
        await this.#alloc.releaseService(out.object);
      return out;
    } catch (err) {
      await txn?.revert();
      throw err;
    }
  }

  override async delete(
    ctx: RestContext,
    name: string,
    opts: DeleteOptions
  ): Promise<DeleteResult> {
    let current: ApiObject | undefined;
    const validate = opts.deleteValidation;
    const out = await super.delete(ctx, name, {
      ...opts,
      deleteValidation: async (obj, old) => {
        current = obj;
        await validate?.(obj, old);
      },
    });
    if (!opts.dryRun && out.code === 200 && current) await this.#alloc.releaseService(current);
    return out;
  }

  async #finish(txn: AllocationTxn, write: () => Promise<ApiObject>): Promise<ApiObject> {
    let out: ApiObject;
    try {
      out = await write();
    } catch (err) {
      await txn.revert();
      throw err;
    }
    await txn.commit();
    return out;
  }
}
