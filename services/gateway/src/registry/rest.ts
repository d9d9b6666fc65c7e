// The REST roles of the registry (k8s.io/apiserver registry/rest): small interfaces a REST
// object implements for the verbs it serves. The installer inspects them (isCreater, isGetter,
// ...) to decide which verbs a path answers; a verb the object lacks is 405. Methods take what
// the handler decoded plus a small context and options, never the HTTP request.
import type { Consistency, ListOptions } from '@orch/apimachinery/storage';
import type { Status } from '@orch/apimachinery/errors';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { FeedListener } from '../watch/change.js';
import type { HttpRequest, HttpResponse } from '../http/handler.js';

/**
 * The key of a REST object in the installer's map: `<group>/<version>/<resource>`, or
 * `<group>/<version>/<resource>/<subresource>` for a subresource.
 */
export function restKey(
  gvr: { group: string; version: string; resource: string },
  subresource = ''
): string {
  const base = `${gvr.group}/${gvr.version}/${gvr.resource}`;
  return subresource ? `${base}/${subresource}` : base;
}

/** What a REST method knows of its request beyond the object (k8s: the request context). */
export interface RestContext {
  /** The namespace of the path; undefined for cluster-scoped kinds and reads across namespaces. */
  namespace?: string | undefined;
  /** The requester, for operations that answer about them (self reviews). */
  user?: UserInfo | undefined;
}

/** The kind a REST object reads and answers (k8s rest.Storage New()). */
export interface ObjectKind {
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
  /** A custom resource: decoding prunes and defaults by its CRD version's schema. */
  customResource?: ResourceDefinition['customResource'];
}

/**
 * A check run on the final object just before it is written (k8s rest.ValidateObjectFunc):
 * admission's validating phase, bound to the request's attributes by the handler (the mutating
 * phase has the same shape, handlers/scope.ts).
 */
export type ValidateObjectFunc = (obj: ApiObject, old: ApiObject | undefined) => Promise<void>;

/** Every REST object (k8s rest.Storage). */
export interface Storage {
  readonly objectKind: ObjectKind;
}

export interface CreateOptions {
  dryRun: boolean;
  createValidation?: ValidateObjectFunc | undefined;
  /** Receives each warning of the write once (metadata warnings), for `Warning: 299` headers. */
  warn?: ((text: string) => void) | undefined;
}

/** k8s rest.Creater: POST to the collection. */
export interface Creater extends Storage {
  create(ctx: RestContext, obj: ApiObject, opts: CreateOptions): Promise<ApiObject>;
}

/** k8s rest.NamedCreater: POST to a subresource of one object (serviceaccounts/<name>/token). */
export interface NamedCreater extends Storage {
  createNamed(
    ctx: RestContext,
    name: string,
    obj: ApiObject,
    opts: CreateOptions
  ): Promise<ApiObject>;
}

export interface GetOptions {
  consistency: Consistency & ('MOST_RECENT' | 'ANY' | 'NOT_OLDER_THAN');
  revision?: number;
}

/** k8s rest.Getter. */
export interface Getter extends Storage {
  get(ctx: RestContext, name: string, opts: GetOptions): Promise<ApiObject>;
}

export interface ObjectList<T> {
  items: T[];
  revision: number;
  continueToken: string;
  remainingItemCount: number;
}

/** k8s rest.Lister; listJson answers each item as its stored JSON bytes when it can. */
export interface Lister extends Storage {
  readonly listKind: string;
  /** The storage read without its key prefix, which the namespace decides. */
  list(ctx: RestContext, opts: Omit<ListOptions, 'prefix'>): Promise<ObjectList<ApiObject>>;
  listJson?(ctx: RestContext, opts: Omit<ListOptions, 'prefix'>): Promise<ObjectList<Buffer>>;
}

/** The desired object from the current one, undefined when none (k8s rest.UpdatedObjectInfo). */
export type UpdateFunc = (current: ApiObject | undefined) => Promise<ApiObject> | ApiObject;

export interface UpdateOptions {
  dryRun: boolean;
  /** Run when the update creates the object (PUT of a missing object, where allowed). */
  createValidation?: ValidateObjectFunc | undefined;
  updateValidation?: ValidateObjectFunc | undefined;
  /**
   * false: a missing object is 404 whatever the strategy allows (PATCH); true: it is created
   * whatever the strategy allows (server-side apply); unset: the strategy decides.
   */
  forceAllowCreate?: boolean;
  /** Receives each warning of the write once (metadata warnings), for `Warning: 299` headers. */
  warn?: ((text: string) => void) | undefined;
}

/** k8s rest.Updater. */
export interface Updater extends Storage {
  update(
    ctx: RestContext,
    name: string,
    objInfo: UpdateFunc,
    opts: UpdateOptions
  ): Promise<{ object: ApiObject; created: boolean }>;
}

/** k8s rest.Patcher: a patch is applied to what get reads, then written by update. */
export type Patcher = Getter & Updater;

/** metav1.DeletionPropagation. */
export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  dryRun: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: PropagationPolicy | undefined;
  /** Deprecated (k8s DeleteOptions.OrphanDependents): true orphans, false cascades. */
  orphanDependents?: boolean | undefined;
  gracePeriodSeconds?: number | undefined;
  deleteValidation?: ValidateObjectFunc | undefined;
}

/**
 * The answer of a delete: the object left marked for deletion, or a Success Status once it is
 * removed; code 202 only for an object left when the client sent orphanDependents=false.
 */
export interface DeleteResult {
  object: ApiObject | Status;
  code: number;
}

/** k8s rest.GracefulDeleter. */
export interface GracefulDeleter extends Storage {
  delete(ctx: RestContext, name: string, opts: DeleteOptions): Promise<DeleteResult>;
}

/**
 * k8s rest.CollectionDeleter: the objects a list selects, deleted one by one; answers the list
 * as it was read (upstream's Store.DeleteCollection returns it).
 */
export interface CollectionDeleter extends Storage {
  deleteCollection(
    ctx: RestContext,
    opts: DeleteOptions,
    listOpts: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>
  ): Promise<ObjectList<ApiObject>>;
}

/**
 * k8s rest.Watcher: the type's changes from a revision on, to a listener (which filters them);
 * answers the unsubscribe.
 */
export interface Watcher extends Storage {
  watch(ctx: RestContext, listener: FeedListener, fromRevision: number): Promise<() => void>;
}

/**
 * k8s rest.Connecter: a subresource answered by a connection to something else (logs, exec,
 * proxy). `connect` resolves where to go and opens the connection, so that every error before
 * the first byte is a Status; the handler then streams the answer.
 */
export interface Connecter extends Storage {
  /** The HTTP methods the connection is served on. */
  readonly connectMethods: readonly string[];
  connect(ctx: RestContext, name: string, opts: URLSearchParams): Promise<ConnectHandler>;
  /**
   * A GET (the WebSocket upgrade, authorized as `get`) must be allowed to `create` as well, as a
   * POST (SPDY) is: exec, attach and portforward (upstream's synthetic create check).
   */
  readonly createOnGet?: boolean;
  /**
   * The connect options object of the query (k8s NewConnectOptions decoded), which admission
   * sees with operation CONNECT; without it the subresource is not admitted.
   */
  connectOptions?(name: string, opts: URLSearchParams): ApiObject;
}

/** What a Connecter answers with: it takes over the request and the response. */
export interface ConnectHandler {
  serve(req: HttpRequest, res: HttpResponse): Promise<void>;
}

/** Everything a stored kind serves (k8s rest.StandardStorage). */
export type StandardStorage = Creater &
  Getter &
  Lister &
  Updater &
  GracefulDeleter &
  CollectionDeleter &
  Watcher;

const has = (rest: Storage, method: string): boolean =>
  typeof Reflect.get(rest, method) === 'function';

export const isCreater = (rest: Storage): rest is Creater => has(rest, 'create');
export const isNamedCreater = (rest: Storage): rest is NamedCreater => has(rest, 'createNamed');
export const isGetter = (rest: Storage): rest is Getter => has(rest, 'get');
export const isLister = (rest: Storage): rest is Lister => has(rest, 'list');
export const isUpdater = (rest: Storage): rest is Updater => has(rest, 'update');
export const isPatcher = (rest: Storage): rest is Patcher => isGetter(rest) && isUpdater(rest);
export const isGracefulDeleter = (rest: Storage): rest is GracefulDeleter => has(rest, 'delete');
export const isCollectionDeleter = (rest: Storage): rest is CollectionDeleter =>
  has(rest, 'deleteCollection');
export const isWatcher = (rest: Storage): rest is Watcher => has(rest, 'watch');
export const isConnecter = (rest: Storage): rest is Connecter => has(rest, 'connect');
