// The Store of events.orch.io/v1 Events: the core v1 collection (storageGroup "", storageResource
// "events"), converted on the way in and out (@orch/apimachinery apis/events/conversion.ts), as upstream serves both
// versions from one storage with its converting codec. Local to Events: a generic per-kind
// converter in the Store (autoscaling v1/v2 needs one too) would replace it.
import {
  coreToEventsV1,
  eventsV1FieldSelectorToCore,
  eventsV1ToCore,
} from '@orch/apimachinery/apis';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ListOptions } from '@orch/apimachinery/storage';
import type { FeedListener } from '../../../watch/change.js';
import type {
  CreateOptions,
  DeleteOptions,
  DeleteResult,
  GetOptions,
  ObjectList,
  RestContext,
  UpdateFunc,
  UpdateOptions,
  ValidateObjectFunc,
} from '../../rest.js';
import { Store } from '../../store.js';

type Json = Record<string, unknown>;

/** Admission sees objects in the request's version (events.orch.io/v1). */
const asV1 = (fn: ValidateObjectFunc | undefined): ValidateObjectFunc | undefined =>
  fn && ((obj, old) => fn(coreToEventsV1(obj), old && coreToEventsV1(old)));

export class EventsV1Store extends Store {
  /** Objects already converted to core by this store (a PUT that creates passes one to create). */
  readonly #core = new WeakSet<object>();

  override async get(ctx: RestContext, name: string, opts: GetOptions): Promise<ApiObject> {
    return coreToEventsV1(await super.get(ctx, name, opts));
  }

  override async create(ctx: RestContext, obj: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    const core = this.#core.has(obj) ? obj : eventsV1ToCore(obj);
    const out = await super.create(ctx, core, {
      ...opts,
      createValidation: asV1(opts.createValidation),
    });
    return coreToEventsV1(out);
  }

  override async update(
    ctx: RestContext,
    name: string,
    updateFn: UpdateFunc,
    opts: UpdateOptions
  ): Promise<{ object: ApiObject; created: boolean }> {
    const converting: UpdateFunc = async (current) => {
      const desired = eventsV1ToCore(await updateFn(current && coreToEventsV1(current)));
      this.#core.add(desired);
      return desired;
    };
    const out = await super.update(ctx, name, converting, {
      ...opts,
      createValidation: asV1(opts.createValidation),
      updateValidation: asV1(opts.updateValidation),
    });
    return { ...out, object: coreToEventsV1(out.object) };
  }

  override async delete(
    ctx: RestContext,
    name: string,
    opts: DeleteOptions
  ): Promise<DeleteResult> {
    const out = await super.delete(ctx, name, {
      ...opts,
      deleteValidation: asV1(opts.deleteValidation),
    });
    const o = out.object as Json;
    return o['kind'] === 'Status' ? out : { ...out, object: coreToEventsV1(o) };
  }

  override async list(
    ctx: RestContext,
    opts: Omit<ListOptions, 'prefix'>
  ): Promise<ObjectList<ApiObject>> {
    const res = await super.list(ctx, {
      ...opts,
      fieldSelector: eventsV1FieldSelectorToCore(opts.fieldSelector),
    });
    return { ...res, items: res.items.map((o) => coreToEventsV1(o)) };
  }

  override async listJson(
    ctx: RestContext,
    opts: Omit<ListOptions, 'prefix'>
  ): Promise<ObjectList<Buffer>> {
    const res = await this.list(ctx, opts);
    return { ...res, items: res.items.map((o) => Buffer.from(JSON.stringify(o))) };
  }

  override async watch(
    ctx: RestContext,
    listener: FeedListener,
    fromRevision: number
  ): Promise<() => void> {
    return super.watch(
      ctx,
      {
        change: (c) =>
          listener.change({
            ...c,
            object: coreToEventsV1(c.object),
            ...(c.prevObject ? { prevObject: coreToEventsV1(c.prevObject) } : {}),
          }),
        progress: (r) => listener.progress(r),
        fail: (s) => listener.fail(s),
      },
      fromRevision
    );
  }
}
