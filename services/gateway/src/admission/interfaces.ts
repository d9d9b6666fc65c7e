// The seam admission plugs into (k8s.io/apiserver/pkg/admission): the attributes of a write as
// upstream's admission.Attributes carries them, the plugin interface (admission.Interface with
// MutationInterface and ValidationInterface), and the adapters that bind a phase to a request's
// attributes for the handler and the Store to call with the object of the moment
// (AdmissionToValidateObjectFunc). The handler builds the static attributes from the request
// info and the user in the request context; nothing below it reads the HTTP request.
import type {
  AdmissionOperation,
  AdmissionPluginInterface,
  GatewayPluginName,
  Plugins,
} from '@orch/apimachinery/admission';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { GroupVersionKind, GroupVersionResource } from '@orch/apimachinery/schema';
import type { Authorizer } from '../authz/authorizer.js';
import type { RuleReviewer } from '../authz/grpc-authorizer.js';
import type { NamespaceCache } from '../registry/core/namespaces/namespace-informer.js';
import type { Creater, Getter, ValidateObjectFunc } from '../registry/rest.js';

/** The admission operations (the Admit call's, shared with the admission service). */
export type Operation = AdmissionOperation;

export interface AdmissionAttributes {
  operation: Operation;
  /** The kind of the object written (for a subresource, the subresource's kind). */
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  /** '' for the object itself. */
  subresource: string;
  /** '' for cluster-scoped resources. */
  namespace: string;
  name: string;
  /** The requester; undefined for writes from inside the gateway (system namespaces). */
  user: UserInfo | undefined;
  dryRun: boolean;
  /**
   * The object to be written; undefined on delete. A mutating plugin changes it in place; the
   * strategy validates it afterwards.
   */
  object: ApiObject | undefined;
  /** The stored object an update or delete starts from. */
  oldObject: ApiObject | undefined;
  /** The operation's options object (upstream's operationOptions); undefined for CONNECT. */
  options: OperationOptions | undefined;
  /**
   * The request's warning sink (a `Warning: 299` line for the client, plain text); the handler
   * fills it from the request. Undefined for writes from inside the gateway: warnings dropped.
   */
  warn?: (text: string) => void;
  /**
   * The request's audit annotation sink (k8s AddAnnotation: the first value of a key stays),
   * written into its audit event. Undefined for writes from inside the gateway, which have no
   * audit event.
   */
  annotate?: (key: string, value: string) => void;
}

/**
 * The options of the operation as upstream's admission passes them (CreateOptions for a create,
 * also a PUT or patch that creates, UpdateOptions for an update or patch, DeleteOptions for a
 * delete), with what the gateway knows of them: the dry run.
 */
export interface OperationOptions {
  apiVersion: 'meta.orch.io/v1';
  kind: 'CreateOptions' | 'UpdateOptions' | 'DeleteOptions';
  dryRun?: ['All'];
}

const optionsKinds = {
  CREATE: 'CreateOptions',
  UPDATE: 'UpdateOptions',
  DELETE: 'DeleteOptions',
} as const;

export function operationOptions(
  operation: Operation,
  dryRun: boolean
): OperationOptions | undefined {
  if (operation === 'CONNECT') return undefined;
  const kind = optionsKinds[operation];
  return { apiVersion: 'meta.orch.io/v1', kind, ...(dryRun ? { dryRun: ['All'] } : {}) };
}

/**
 * One member of the gateway's chain: the plugin contract of the three processes
 * (`@orch/apimachinery/admission`, k8s admission.Interface with MutationInterface and
 * ValidationInterface) over the gateway's attributes. `admit` (mutating phase) may change
 * `attrs.object` in place and runs before the strategy validates; `validate` (validating phase)
 * sees the final object and changes nothing. A denial is a thrown StatusError (newForbidden,
 * ...), which fails the request at once. A member is a plugin of the gateway, or the call to a
 * service that runs plugins (named after the plugins it names).
 */
export type AdmissionPlugin = AdmissionPluginInterface<AdmissionAttributes>;

/** What a gateway plugin is built from. */
export interface GatewayPluginDeps {
  registry: ResourceRegistry;
  /** The namespaces' store and cache. */
  namespaces: Getter & Creater;
  namespaceCache: NamespaceCache;
  authorizer: Authorizer;
  reviewer: RuleReviewer;
  /** The stores of roles and clusterroles, to read the rules a binding refers to. */
  roles: Getter | undefined;
  clusterRoles: Getter | undefined;
}

/** How a gateway plugin is built. */
export type GatewayPluginFactory = (deps: GatewayPluginDeps) => AdmissionPlugin;

/**
 * The gateway's registered plugins. Each plugin module exports its name and `register(plugins)`;
 * `plugins.ts` registers them all.
 */
export type GatewayPlugins = Plugins<'gateway', GatewayPluginFactory>;

export type { GatewayPluginName };

/** The two phases of the chain, as the handlers see them (one request's admission). */
export interface Admission {
  admit(attrs: AdmissionAttributes): Promise<void>;
  validate(attrs: AdmissionAttributes): Promise<void>;
}

/** What the handler knows before the Store has the final object. */
export type StaticAttributes = Omit<AdmissionAttributes, 'object' | 'oldObject' | 'options'> & {
  namespaced: boolean;
};

/**
 * Binds one phase of admission to a request's attributes (k8s AdmissionToValidateObjectFunc,
 * and the admit step of the update's transformers): the name and namespace come from the object
 * of the moment when it has them (generateName, a namespace in the body of a POST to a
 * cluster-wide path). An update that finds nothing stored runs as CREATE, as upstream's.
 */
export function admissionObjectFunc(
  phase: ((attrs: AdmissionAttributes) => Promise<void>) | undefined,
  attrs: StaticAttributes
): ValidateObjectFunc | undefined {
  if (!phase) return undefined;
  const { namespaced, ...base } = attrs;
  return (obj, old) => {
    const deleting = attrs.operation === 'DELETE';
    const current = deleting ? undefined : obj;
    const oldObject = deleting ? obj : old;
    const named = current ?? oldObject;
    const operation = attrs.operation === 'UPDATE' && !old ? 'CREATE' : attrs.operation;
    return phase({
      ...base,
      operation,
      options: operationOptions(operation, base.dryRun),
      name: named?.metadata.name || base.name,
      namespace: namespaced ? named?.metadata.namespace || base.namespace : '',
      object: current,
      oldObject,
    });
  };
}
