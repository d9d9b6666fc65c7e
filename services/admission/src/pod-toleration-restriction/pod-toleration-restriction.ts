// PodTolerationRestriction (k8s.io/kubernetes plugin/pkg/admission/podtolerationrestriction):
// a namespace's default tolerations (annotation `scheduler.alpha.orch.io/defaultTolerations`,
// JSON; without it the configuration's `default`) are merged into each new pod's tolerations,
// refused when they conflict; a pod that is not BestEffort also tolerates
// `node.orch.io/memory-pressure:NoSchedule`; and every toleration of the pod must be allowed by
// the namespace's whitelist (annotation `scheduler.alpha.orch.io/tolerationsWhitelist`, else the
// configuration's `whitelist`; empty allows all). Annotations are upstream's
// scheduler.alpha.kubernetes.io/ ones.
import {
  fieldErrorMessage,
  fieldInvalid,
  fieldNotSupported,
  newForbidden,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type {
  AdmissionContext,
  AdmissionRequest,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';
import { lookupNamespace } from '../namespace-lookup.js';
import type { Pod, PodSpec, Toleration } from '@orch/api/core/v1';
import type { ApiObject } from '@orch/apimachinery/meta';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'PodTolerationRestriction' satisfies ServicePluginName;

export const defaultTolerationsAnnotation = 'scheduler.alpha.orch.io/defaultTolerations';
export const tolerationsWhitelistAnnotation = 'scheduler.alpha.orch.io/tolerationsWhitelist';
export const memoryPressureToleration: Toleration = {
  key: 'node.orch.io/memory-pressure',
  operator: 'Exists',
  effect: 'NoSchedule',
};
export const configurationApiVersion = 'podtolerationrestriction.admission.orch.io/v1alpha1';

export type { Toleration };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

const op = (t: Toleration): string => t.operator || 'Equal';

/** Two tolerations of the same key and effect that disagree (upstream's tolerations.IsConflict). */
function conflict(a: Toleration, b: Toleration): boolean {
  if ((a.key ?? '') !== (b.key ?? '') || (a.effect ?? '') !== (b.effect ?? '')) return false;
  if (op(a) !== op(b)) return true;
  if (op(a) === 'Equal' && (a.value ?? '') !== (b.value ?? '')) return true;
  return a.effect === 'NoExecute' && a.tolerationSeconds !== b.tolerationSeconds;
}

export const isConflict = (first: readonly Toleration[], second: readonly Toleration[]): boolean =>
  first.some((a) => second.some((b) => conflict(a, b)));

/** `ss` tolerates everything `t` does (upstream's isSuperset). */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (JSON.stringify(ss) === JSON.stringify(t)) return true;
  if ((ss.key ?? '') !== (t.key ?? '') && !((ss.key ?? '') === '' && op(ss) === 'Exists')) {
    return false;
  }
  if ((ss.effect ?? '') !== '' && ss.effect !== t.effect) return false;
  if (op(ss) === 'Equal' && (op(t) !== 'Equal' || (ss.value ?? '') !== (t.value ?? ''))) {
    return false;
  }
  if ((ss.effect ?? '') === 'NoExecute' || (ss.effect ?? '') === '') {
    if (ss.tolerationSeconds !== undefined) {
      if (t.tolerationSeconds === undefined || t.tolerationSeconds > ss.tolerationSeconds) {
        return false;
      }
    }
  }
  return true;
}

/** The union, without any toleration another one covers (upstream's MergeTolerations). */
export function mergeTolerations(
  first: readonly Toleration[],
  second: readonly Toleration[]
): Toleration[] {
  const all = [...first, ...second];
  const out: Toleration[] = [];
  all.forEach((t, i) => {
    const covered = all.some(
      (o, j) =>
        j !== i &&
        isSuperset(o, t) &&
        // of two equal ones, keep the first
        (!isSuperset(t, o) || j < i)
    );
    if (!covered) out.push(t);
  });
  return out;
}

/** Every toleration is allowed by some whitelist entry (upstream's VerifyAgainstWhitelist). */
export const verifyAgainstWhitelist = (
  tolerations: readonly Toleration[],
  whitelist: readonly Toleration[]
): boolean =>
  whitelist.length === 0 || tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));

function parseTolerations(v: unknown, path: FieldPath, errors: FieldError[]): Toleration[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    errors.push(fieldInvalid(path, v, 'must be a list of tolerations'));
    return [];
  }
  const out: Toleration[] = [];
  v.forEach((t, i) => {
    const o = obj(t);
    const p = path.index(i);
    if (!o) {
      errors.push(fieldInvalid(p, t, 'must be a toleration'));
      return;
    }
    for (const k of Object.keys(o)) {
      if (!['key', 'operator', 'value', 'effect', 'tolerationSeconds'].includes(k)) {
        errors.push(
          fieldNotSupported(p.child(k), k, [
            'key',
            'operator',
            'value',
            'effect',
            'tolerationSeconds',
          ])
        );
      }
    }
    if (o['operator'] !== undefined && o['operator'] !== 'Exists' && o['operator'] !== 'Equal') {
      errors.push(fieldNotSupported(p.child('operator'), o['operator'], ['Equal', 'Exists']));
    }
    if (
      o['effect'] !== undefined &&
      o['effect'] !== '' &&
      !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(String(o['effect']))
    ) {
      errors.push(
        fieldNotSupported(p.child('effect'), o['effect'], [
          'NoSchedule',
          'PreferNoSchedule',
          'NoExecute',
        ])
      );
    }
    if (o['operator'] === 'Exists' && o['value']) {
      errors.push(
        fieldInvalid(
          p.child('value'),
          o['value'],
          "value must be empty when `operator` is 'Exists'"
        )
      );
    }
    if (o['tolerationSeconds'] !== undefined && !Number.isSafeInteger(o['tolerationSeconds'])) {
      errors.push(
        fieldInvalid(p.child('tolerationSeconds'), o['tolerationSeconds'], 'must be an integer')
      );
    }
    out.push(o as Toleration);
  });
  return out;
}

export interface PodTolerationRestrictionConfig {
  default: Toleration[];
  whitelist: Toleration[];
}

/** Parses the plugin's Configuration (upstream's podtolerationrestriction.admission.k8s.io/v1alpha1). */
export function parsePodTolerationRestrictionConfig(raw: unknown): PodTolerationRestrictionConfig {
  if (raw === undefined || raw === null) return { default: [], whitelist: [] };
  const o = obj(raw);
  if (!o) throw new Error('PodTolerationRestriction configuration: must be an object');
  const errors: FieldError[] = [];
  for (const k of Object.keys(o)) {
    if (!['apiVersion', 'kind', 'default', 'whitelist'].includes(k)) {
      errors.push(fieldNotSupported(newPath(k), k, ['apiVersion', 'kind', 'default', 'whitelist']));
    }
  }
  if (o['apiVersion'] !== undefined && o['apiVersion'] !== configurationApiVersion) {
    errors.push(
      fieldNotSupported(newPath('apiVersion'), o['apiVersion'], [configurationApiVersion])
    );
  }
  if (o['kind'] !== undefined && o['kind'] !== 'Configuration') {
    errors.push(fieldNotSupported(newPath('kind'), o['kind'], ['Configuration']));
  }
  const config = {
    default: parseTolerations(o['default'], newPath('default'), errors),
    whitelist: parseTolerations(o['whitelist'], newPath('whitelist'), errors),
  };
  if (errors.length > 0) {
    throw new Error(
      `PodTolerationRestriction configuration: ${errors.map(fieldErrorMessage).join(', ')}`
    );
  }
  return config;
}

const isPod = (req: AdmissionRequest): boolean =>
  req.resource.group === '' && req.resource.resource === 'pods' && req.subResource === '';

/** No container requests or limits anything (upstream's BestEffort QoS class). */
function isBestEffort(spec: Obj): boolean {
  for (const list of ['initContainers', 'containers']) {
    for (const c of Array.isArray(spec[list]) ? (spec[list] as unknown[]) : []) {
      const r = obj(obj(c)?.['resources']);
      if (Object.keys(obj(r?.['requests']) ?? {}).length > 0) return false;
      if (Object.keys(obj(r?.['limits']) ?? {}).length > 0) return false;
    }
  }
  return true;
}

export function newPodTolerationRestriction(deps: PluginDeps): ServicePlugin {
  const config = parsePodTolerationRestrictionConfig(deps.config);

  /** A namespace annotation's tolerations; undefined without the annotation. */
  const fromNamespace = async (
    req: AdmissionRequest,
    key: string,
    signal: AbortSignal
  ): Promise<Toleration[] | undefined> => {
    const ns = await lookupNamespace(deps.listers, req.namespace, signal);
    const a = ns?.metadata.annotations?.[key];
    if (a === undefined) return undefined;
    const errors: FieldError[] = [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(a);
    } catch (err) {
      throw newForbidden(
        { group: '', resource: 'pods' },
        req.name,
        `namespace ${req.namespace} annotation ${key} is not JSON: ${(err as Error).message}`
      );
    }
    const ts = parseTolerations(parsed, newPath('metadata', 'annotations').key(key), errors);
    if (errors.length > 0) {
      throw newForbidden(
        { group: '', resource: 'pods' },
        req.name,
        `namespace ${req.namespace}: ${errors.map(fieldErrorMessage).join(', ')}`
      );
    }
    return ts;
  };

  const tolerationsOf = (o: Pod | undefined): Toleration[] => {
    const ts = o?.spec?.tolerations;
    return Array.isArray(ts) ? ts : [];
  };

  const validate = async (req: AdmissionRequest, ctx: AdmissionContext): Promise<void> => {
    if (!isPod(req) || !req.object) return;
    const tolerations = tolerationsOf(req.object);
    if (tolerations.length === 0) return;
    let whitelist = await fromNamespace(req, tolerationsWhitelistAnnotation, ctx.signal);
    let scope = 'namespace';
    if (whitelist === undefined) {
      whitelist = config.whitelist;
      scope = 'cluster';
    }
    if (!verifyAgainstWhitelist(tolerations, whitelist)) {
      throw newForbidden(
        { group: '', resource: 'pods' },
        req.name,
        `pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`
      );
    }
  };

  return {
    name: pluginName,
    handles: (o) => o === 'CREATE' || o === 'UPDATE',
    mayValidate: async (req) => isPod(req),
    async admit(req, ctx) {
      if (!isPod(req) || !req.object) return;
      const current = tolerationsOf(req.object);
      let final = current;
      if (req.operation === 'CREATE') {
        const defaults =
          (await fromNamespace(req, defaultTolerationsAnnotation, ctx.signal)) ?? config.default;
        if (defaults.length > 0) {
          if (current.length > 0) {
            if (isConflict(defaults, current)) {
              throw newForbidden(
                { group: '', resource: 'pods' },
                req.name,
                'namespace tolerations and pod tolerations conflict'
              );
            }
            final = mergeTolerations(defaults, current);
          } else final = defaults;
        }
      }
      const spec = obj((req.object as Pod).spec) ?? {};
      if (!isBestEffort(spec)) final = mergeTolerations(final, [memoryPressureToleration]);
      if (JSON.stringify(final) !== JSON.stringify(current)) {
        const pod = structuredClone(req.object) as ApiObject & Pod;
        // A pod without a spec is refused by validation, which runs after admission.
        pod.spec ??= {} as PodSpec;
        pod.spec.tolerations = final;
        req.object = pod;
      }
      await validate(req, ctx);
    },
    validate,
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newPodTolerationRestriction);
}
