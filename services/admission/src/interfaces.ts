// The contract inside the admission service (k8s.io/apiserver/pkg/admission as the service runs
// it): the attributes of one write as the gateway sends them, what a plugin may add to the
// answer (warnings, audit annotations), the plugin interface, and the read-only views of the
// cluster that plugins consult (informer-backed listers). A denial is a thrown StatusError
// (`@orch/apimachinery/errors`), which the service returns to the gateway as the request's
// failure; any other thrown error is an internal error of that plugin.
import type { Registry } from 'prom-client';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  AdmissionOperation,
  AdmissionPluginInterface,
  AdmissionServicePluginName,
  Plugins,
} from '@orch/apimachinery/admission';
import type { AdmissionCallRequest } from '@orch/apimachinery/grpc';
import type { GroupVersionKind, GroupVersionResource } from '@orch/apimachinery/schema';
import type { Logger } from '@orch/component-base/logs';

export type Operation = AdmissionOperation;

/**
 * One write's attributes (upstream admission.Attributes; the fields of AdmissionReview.request
 * other than uid, which each webhook call makes anew), as the Admit call carries them.
 */
export type AdmissionRequest = AdmissionCallRequest;

/** What a plugin may add to the answer besides allowing, denying or mutating. */
export interface AdmissionContext {
  /** A `Warning: 299` line for the client (plain text, the gateway adds the code). */
  warn(text: string): void;
  /** An audit annotation (k8s AddAnnotation); the key is prefixed by the plugin. */
  annotate(key: string, value: string): void;
  /** Aborted when the gateway gave up on the call. */
  signal: AbortSignal;
}

/** The service's plugins, by the names the admission flags use (the Admit call's contract). */
export type ServicePluginName = AdmissionServicePluginName;

/**
 * One plugin of the service: the plugin contract of the three processes
 * (`@orch/apimachinery/admission`, k8s admission.Interface with MutationInterface and
 * ValidationInterface) over the Admit call's request. `admit` may replace `req.object`;
 * `validate` changes nothing.
 */
export interface ServicePlugin extends AdmissionPluginInterface<
  AdmissionRequest,
  AdmissionContext,
  ServicePluginName
> {
  /**
   * Could `validate` act on a request for this resource and operation, whatever the object?
   * Asked at the mutating phase so that the gateway may leave out a validating call no plugin
   * needs; conservative (selectors and conditions are not looked at). Absent: always yes.
   */
  mayValidate?(req: AdmissionRequest): Promise<boolean>;
}

/** A synced, read-only view of one resource (client-go's Lister over an informer). */
export interface ObjectLister {
  /** Every object, or those of one namespace. */
  list(namespace?: string): ApiObject[];
  /** One object by namespace ('' when cluster-scoped) and name. */
  get(namespace: string, name: string): ApiObject | undefined;
}

/** The listers plugins consult. */
export interface Listers {
  namespaces: ObjectLister;
  /**
   * A lister of any resource (by group, '' for core, and plural resource name), started and
   * synced on first use (the params of policies).
   */
  forResource(group: string, resource: string): Promise<ObjectLister>;
}

/** A compiled set of webhook matchConditions (CEL, see the cel module). */
export interface MatchConditions {
  /**
   * All conditions true: match. Any false: no match (the webhook is skipped). An evaluation
   * error is returned as `error` (the webhook's failurePolicy decides).
   */
  evaluate(
    req: AdmissionRequest,
    matched?: { kind: GroupVersionKind; resource: GroupVersionResource }
  ): Promise<{ matches: boolean; error?: string }>;
}

/**
 * Compiles `matchConditions[]` ({name, expression}) of a webhook; compile errors are returned
 * as field errors under `path` (the webhook's matchConditions path).
 */
export type MatchConditionsCompiler = (
  conditions: readonly { name: string; expression: string }[],
  path: string
) => { conditions: MatchConditions; errors: FieldError[] };

/** How a plugin is built, from what it is given. */
export type PluginFactory = (deps: PluginDeps) => ServicePlugin;

/**
 * The service's registered plugins. Each plugin module exports its name and
 * `register(plugins)`; `plugins.ts` registers them all.
 */
export type ServicePlugins = Plugins<'admission', PluginFactory>;

/** What a plugin factory is given. */
export interface PluginDeps {
  listers: Listers;
  /** Metrics go here (upstream's names where they exist). */
  registry: Registry;
  log: Logger;
  /**
   * This plugin's configuration from --admission-control-config-file: the parsed `configuration`
   * of its entry, or the parsed content of the file its `path` names; undefined when none.
   */
  config: unknown;
  matchConditions: MatchConditionsCompiler;
  /** The storage service, for plugins that write (ResourceQuota charges a quota's status). */
  storage?: PluginStorage;
  /** Settings from the service's flags (upstream's apiserver flags some plugins read). */
  settings?: PluginSettings;
}

/** Reads and conditional writes of stored objects (the storage client's get, list and update). */
export interface PluginStorage {
  get(key: string, consistency: 'MOST_RECENT'): Promise<Record<string, unknown>>;
  list(opts: {
    prefix: string;
    consistency: 'MOST_RECENT';
  }): Promise<{ items: Record<string, unknown>[] }>;
  update(
    key: string,
    object: Record<string, unknown>,
    pre: { revision: number }
  ): Promise<Record<string, unknown>>;
}

/** Plugin settings that upstream takes as apiserver flags rather than plugin configuration. */
export interface PluginSettings {
  /** --default-not-ready-toleration-seconds (DefaultTolerationSeconds). */
  defaultNotReadyTolerationSeconds: number;
  /** --default-unreachable-toleration-seconds (DefaultTolerationSeconds). */
  defaultUnreachableTolerationSeconds: number;
}
