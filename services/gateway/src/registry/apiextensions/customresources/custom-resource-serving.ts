// Custom resources served live (upstream pkg/apiserver/customresource_handler.go crdHandler and
// customresource_discovery_controller.go): the gateway's CRD watch cache read as an informer;
// for every Established CRD, each served version gets a resource definition in the registry
// (discovery, OpenAPI, routing and authorization follow it) and a Store with its subresources
// in the REST map. A CRD change replaces them; a deleted CRD, or a version no longer served,
// removes them. The watch cache of a custom resource is the Cachers' own, made on first use.
import type {
  CustomResourceConverter,
  CustomResourceDefinition,
} from '@orch/apimachinery/apiextensions';
import {
  WebhookConverter,
  apiextensionsGroup,
  conversionWebhookTimeoutMs,
  evaluateSchemaRules,
  nopConverter,
  unknownStrategyConverter,
} from '@orch/apimachinery/apiextensions';
import type { StorageInterface } from '@orch/apimachinery/storage';
import type { Informer } from '@orch/apimachinery/informer';
import type { ResourceDefinition, ResourceRegistry } from '@orch/apimachinery/registry';
import type { Logger } from '@orch/component-base/logs';
import type { Cachers } from '../../../cache/cachers.js';
import { restKey } from '../../rest.js';
import type { Storage } from '../../rest.js';
import { StatusRest, statusStrategy } from '../../status-rest.js';
import { CustomResourceScaleRest } from './custom-resource-scale-rest.js';
import { CustomResourceStore } from './custom-resource-store.js';
import { customResourceDefinitions } from './resource-definitions.js';
import { customResourceStrategy } from './strategy.js';
import type { SchemaRules } from './strategy.js';

export interface CustomResourceServingDeps {
  registry: ResourceRegistry;
  /** The installer's REST map, changed in place. */
  rest: Map<string, Storage>;
  storage: StorageInterface;
  cachers: Cachers;
  log: Logger;
  /** The x-kubernetes-validations rules (default: crd-cel's evaluateSchemaRules). */
  rules?: SchemaRules;
  /** How conversion webhooks named by `clientConfig.service` are reached (--webhook-service-addresses). */
  webhookServiceAddresses?: Readonly<Record<string, string>>;
}

/**
 * How long a replaced conversion webhook client stays open: calls in flight may finish
 * (a call takes at most conversionWebhookTimeoutMs).
 */
const converterGraceMs = conversionWebhookTimeoutMs + 5_000;

const key = (d: ResourceDefinition): string => restKey(d);

export class CustomResourceServing {
  readonly #deps: CustomResourceServingDeps;
  readonly #informer: Informer | undefined;
  readonly #start: () => void;
  /** The defs each CRD (by name) serves now. */
  readonly #served = new Map<string, ResourceDefinition[]>();
  /** The webhook converter of each CRD (by name) with `Webhook` conversion. */
  readonly #converters = new Map<string, { spec: string; converter: WebhookConverter }>();

  constructor(deps: CustomResourceServingDeps) {
    this.#deps = deps;
    const crdDef = deps.registry.lookup(apiextensionsGroup, 'v1', 'customresourcedefinitions');
    if (!crdDef) {
      this.#informer = undefined;
      this.#start = () => {};
      return;
    }
    const cacher = deps.cachers.for(crdDef);
    const informer = cacher.cache;
    this.#informer = informer;
    this.#start = () => void cacher.start({ required: true });
    const sync = (o: Record<string, unknown>): void =>
      this.#sync(nameOf(o), informer.get(nameOf(o)) as CustomResourceDefinition | undefined);
    informer.addEventHandler({
      onAdd: sync,
      onUpdate: (_old, o) => sync(o),
      onDelete: sync,
      onReplace: () => this.#resync(),
    });
  }

  /** Whether the CRDs were read once (readiness). */
  get synced(): boolean {
    return this.#informer?.synced ?? true;
  }

  /** Starts the CRD cache; resolves once it is synced. */
  async start(): Promise<void> {
    this.#start();
    await this.#informer?.waitForSync();
  }

  /** What a CRD serves, by name (for tests and the discovery of what is live). */
  served(crdName: string): readonly ResourceDefinition[] {
    return this.#served.get(crdName) ?? [];
  }

  #resync(): void {
    const informer = this.#informer;
    if (!informer) return;
    const live = new Map(
      // The informer holds the decoded JSON of stored CRDs.
      informer.list().map((o) => [nameOf(o), o as CustomResourceDefinition])
    );
    for (const name of [...this.#served.keys()]) if (!live.has(name)) this.#sync(name, undefined);
    for (const [name, crd] of live) this.#sync(name, crd);
  }

  /** Serves what `crd` defines now (nothing when it is gone or not Established). */
  #sync(name: string, crd: CustomResourceDefinition | undefined): void {
    const { registry, rest, log } = this.#deps;
    const before = this.#served.get(name) ?? [];
    const wanted = crd ? customResourceDefinitions(crd) : [];
    const wantedKeys = new Set(wanted.map(key));
    for (const old of before) {
      if (wantedKeys.has(key(old))) continue;
      registry.remove(old.group, old.version, old.resource);
      rest.delete(key(old));
      for (const sub of old.subresources ?? []) rest.delete(restKey(old, sub));
    }
    const converter = this.#converterFor(name, crd);
    const serving: ResourceDefinition[] = [];
    for (const def of wanted) {
      const existing = registry.lookup(def.group, def.version, def.resource);
      const ours = before.some((d) => key(d) === key(def));
      if (existing && !ours) {
        // A built-in kind or another CRD's resource holds the path: never replaced.
        log.warn('custom resource not served: its path is taken', { crd: name, path: key(def) });
        continue;
      }
      this.#install(def, converter);
      serving.push(def);
    }
    if (serving.length > 0) this.#served.set(name, serving);
    else this.#served.delete(name);
  }

  /**
   * The converter of the CRD's strategy: `None`'s, or the CRD's webhook converter, new when the
   * CRD's spec changed (it dials by the spec's clientConfig and prunes by its schemas); the one
   * it replaces is closed once its calls in flight are over.
   */
  #converterFor(name: string, crd: CustomResourceDefinition | undefined): CustomResourceConverter {
    const strategy = crd?.spec.conversion?.strategy ?? 'None';
    const webhook = strategy === 'Webhook' ? crd : undefined;
    const spec = webhook ? JSON.stringify(webhook.spec) : '';
    let entry = this.#converters.get(name);
    if (entry && entry.spec !== spec) {
      const old = entry.converter;
      setTimeout(() => old.close(), converterGraceMs).unref();
      this.#converters.delete(name);
      entry = undefined;
    }
    if (!webhook) {
      return strategy === 'None' || !crd ? nopConverter : unknownStrategyConverter(crd);
    }
    if (!entry) {
      const converter = new WebhookConverter(webhook, {
        serviceAddresses: this.#deps.webhookServiceAddresses ?? {},
      });
      entry = { spec, converter };
      this.#converters.set(name, entry);
    }
    const { converter } = entry;
    return (objs, apiVersion) => converter.convert(objs, apiVersion);
  }

  #install(def: ResourceDefinition, converter: CustomResourceConverter): void {
    const { registry, rest, storage, cachers } = this.#deps;
    const rules = this.#deps.rules ?? schemaRules;
    const strategy = customResourceStrategy(def, rules);
    const store = new CustomResourceStore(def, strategy, storage, cachers, converter);
    for (const sub of ['status', 'scale']) rest.delete(restKey(def, sub));
    rest.set(key(def), store);
    if (def.subresources?.includes('status')) {
      rest.set(restKey(def, 'status'), new StatusRest(store, statusStrategy(strategy)));
    }
    const scale = def.customResource?.version.subresources?.scale;
    if (scale) rest.set(restKey(def, 'scale'), new CustomResourceScaleRest(store, scale));
    registry.replace(def);
  }
}

/** The rules of the schema on an object, with the old one on update (upstream's CEL validator). */
const schemaRules: SchemaRules = (schema, obj, oldObj) =>
  evaluateSchemaRules(schema, obj, oldObj).errors;

function nameOf(o: Record<string, unknown>): string {
  const meta = o['metadata'] as { name?: unknown } | undefined;
  return typeof meta?.name === 'string' ? meta.name : '';
}
