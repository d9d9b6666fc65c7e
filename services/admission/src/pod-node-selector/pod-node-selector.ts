// PodNodeSelector (k8s.io/kubernetes plugin/pkg/admission/podnodeselector): a namespace's node
// selector (annotation `scheduler.alpha.orch.io/node-selector`, upstream's
// scheduler.alpha.kubernetes.io/node-selector; without it the configuration's
// `clusterDefaultNodeSelector`) is merged into each new pod's `spec.nodeSelector` (admit), and
// a pod whose selector conflicts with it, or uses labels outside the namespace's whitelist in
// the configuration, is refused (validate). The configuration
// (`podNodeSelectorPluginConfig`) maps `clusterDefaultNodeSelector` and namespace names to
// selectors in label form (`env=prod,tier=web`).
import { fieldErrorMessage, fieldInvalid, newForbidden, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { Pod, PodSpec } from '@orch/api/core/v1';
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  AdmissionRequest,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';
import { lookupNamespace } from '../namespace-lookup.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'PodNodeSelector' satisfies ServicePluginName;

export const nodeSelectorAnnotation = 'scheduler.alpha.orch.io/node-selector';
export const clusterDefaultKey = 'clusterDefaultNodeSelector';

type Labels = Record<string, string>;
type Obj = Record<string, unknown>;

const labelKey =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

/** `a=b,c=d` as a label map (upstream's labels.ConvertSelectorToLabelsMap); throws on bad input. */
export function parseLabelSelectorMap(s: string): Labels {
  const out: Labels = {};
  if (s.trim() === '') return out;
  for (const part of s.split(',')) {
    const kv = part.split('=');
    if (kv.length !== 2) {
      throw new Error(
        `invalid selector: ${JSON.stringify(s)}: ${JSON.stringify(part.trim())} is not key=value`
      );
    }
    const k = kv[0]!.trim();
    const v = kv[1]!.trim();
    if (!labelKey.test(k)) {
      throw new Error(
        `invalid selector: ${JSON.stringify(s)}: invalid label key ${JSON.stringify(k)}`
      );
    }
    if (!labelValue.test(v)) {
      throw new Error(
        `invalid selector: ${JSON.stringify(s)}: invalid label value ${JSON.stringify(v)}`
      );
    }
    out[k] = v;
  }
  return out;
}

/** Same key, different value (upstream's labels.Conflicts). */
const conflicts = (a: Labels, b: Labels): boolean =>
  Object.entries(a).some(([k, v]) => k in b && b[k] !== v);

/** Every label of `l` is in the whitelist with the same value (labels.AreLabelsInWhiteList). */
const inWhitelist = (l: Labels, whitelist: Labels): boolean =>
  Object.entries(l).every(([k, v]) => k in whitelist && whitelist[k] === v);

export interface PodNodeSelectorConfig {
  clusterDefault: Labels;
  /** Namespace → whitelist. */
  whitelists: Map<string, Labels>;
}

/** Parses `podNodeSelectorPluginConfig`; every bad entry at once, each naming its field. */
export function parsePodNodeSelectorConfig(raw: unknown): PodNodeSelectorConfig {
  const config: PodNodeSelectorConfig = { clusterDefault: {}, whitelists: new Map() };
  if (raw === undefined || raw === null) return config;
  const errors: FieldError[] = [];
  const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(raw)) throw new Error(`PodNodeSelector configuration: must be an object`);
  for (const k of Object.keys(raw)) {
    if (k !== 'podNodeSelectorPluginConfig') {
      errors.push(
        fieldInvalid(newPath(k), raw[k], 'unknown field (expected podNodeSelectorPluginConfig)')
      );
    }
  }
  const entries = raw['podNodeSelectorPluginConfig'];
  if (entries !== undefined && entries !== null) {
    const path = newPath('podNodeSelectorPluginConfig');
    if (!isObj(entries)) errors.push(fieldInvalid(path, entries, 'must be a map of selectors'));
    else {
      for (const [k, v] of Object.entries(entries)) {
        if (typeof v !== 'string') {
          errors.push(fieldInvalid(path.key(k), v, 'must be a selector string'));
          continue;
        }
        try {
          const labels = parseLabelSelectorMap(v);
          if (k === clusterDefaultKey) config.clusterDefault = labels;
          else config.whitelists.set(k, labels);
        } catch (err) {
          errors.push(fieldInvalid(path.key(k), v, (err as Error).message));
        }
      }
    }
  }
  if (errors.length > 0) {
    throw new Error(`PodNodeSelector configuration: ${errors.map(fieldErrorMessage).join(', ')}`);
  }
  return config;
}

const isPod = (req: AdmissionRequest): boolean =>
  req.resource.group === '' && req.resource.resource === 'pods' && req.subResource === '';

export function newPodNodeSelector(deps: PluginDeps): ServicePlugin {
  const config = parsePodNodeSelectorConfig(deps.config);
  const forbid = (req: AdmissionRequest, why: string) =>
    newForbidden({ group: '', resource: 'pods' }, req.name, why);

  /** The namespace's selector: its annotation when present (even empty), else the cluster's. */
  const namespaceSelector = async (req: AdmissionRequest, signal: AbortSignal): Promise<Labels> => {
    const ns = await lookupNamespace(deps.listers, req.namespace, signal);
    const a = ns?.metadata.annotations?.[nodeSelectorAnnotation];
    if (a === undefined) return config.clusterDefault;
    try {
      return parseLabelSelectorMap(a);
    } catch (err) {
      throw forbid(
        req,
        `namespace ${req.namespace} has an invalid ${nodeSelectorAnnotation} annotation: ${(err as Error).message}`
      );
    }
  };
  const podSelector = (o: unknown): Labels =>
    (o as { spec?: { nodeSelector?: Labels } } | undefined)?.spec?.nodeSelector ?? {};

  return {
    name: pluginName,
    handles: (op) => op === 'CREATE',
    mayValidate: async (req) => isPod(req),
    async admit(req, ctx) {
      if (!isPod(req) || !req.object) return;
      const nsSelector = await namespaceSelector(req, ctx.signal);
      const selector = podSelector(req.object);
      if (conflicts(nsSelector, selector)) {
        throw forbid(
          req,
          'pod node label selector conflicts with its namespace node label selector'
        );
      }
      const merged = { ...selector, ...nsSelector };
      if (Object.keys(merged).length === Object.keys(selector).length) return;
      const pod = structuredClone(req.object) as ApiObject & Pod;
      // A pod without a spec is refused by validation, which runs after admission.
      pod.spec ??= {} as PodSpec;
      pod.spec.nodeSelector = merged;
      req.object = pod;
    },
    async validate(req, ctx) {
      if (!isPod(req) || !req.object) return;
      const selector = podSelector(req.object);
      const nsSelector = await namespaceSelector(req, ctx.signal);
      if (conflicts(nsSelector, selector)) {
        throw forbid(
          req,
          'pod node label selector conflicts with its namespace node label selector'
        );
      }
      // An empty or absent whitelist allows any label (labels.AreLabelsInWhiteList); the
      // namespace's own selector, merged in at admit, is allowed too.
      const whitelist = config.whitelists.get(req.namespace);
      if (
        whitelist &&
        Object.keys(whitelist).length > 0 &&
        !inWhitelist(selector, { ...whitelist, ...nsSelector })
      ) {
        throw forbid(req, 'pod node label selector labels conflict with its namespace whitelist');
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newPodNodeSelector);
}
