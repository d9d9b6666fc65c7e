// PodSecurity (k8s.io/pod-security-admission/admission, admission.go), validating: the Pod
// Security Standards per namespace. A namespace's labels `pod-security.orch.io/<mode>` and
// `pod-security.orch.io/<mode>-version` (modes enforce, audit, warn; upstream's
// pod-security.kubernetes.io/) pick a level and version for each mode, the configuration's
// defaults fill the rest. A pod that fails the enforce level is refused (`pods "x" is
// forbidden: violates PodSecurity "restricted:latest": ...`); the warn level gives a warning
// (`would violate PodSecurity ...`), the audit level an audit annotation. The pod templates of
// workload kinds are checked for warnings and audit only. A namespace whose labels change is
// checked: invalid labels are refused, and a new enforce level gets a warning for each existing
// pod that violates it. Exemptions (usernames, runtime classes, namespaces) come from the
// configuration.
import {
  fieldInvalid,
  newForbidden,
  newInternalError,
  newInvalid,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import { podSecurityLabelPrefix } from '@orch/apimachinery/admission';
import type { PodSecurityScope } from '@orch/apimachinery/admission';
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  AdmissionContext,
  AdmissionRequest,
  ObjectLister,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';
import { lookupNamespace } from '../namespace-lookup.js';
import { describeResults, evaluatePod, reasonsOf } from './checks.js';
import type { CheckResult, PodView } from './checks.js';
import {
  modes,
  parseLevel,
  parsePodSecurityConfiguration,
  parseVersion,
  versionString,
} from './pod-security-configuration.js';
import type { LevelVersion, Mode, PodSecurityConfiguration } from './pod-security-configuration.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'PodSecurity' satisfies ServicePluginName;

/** The namespace label prefix (upstream's pod-security.kubernetes.io/). */
export const labelPrefix = podSecurityLabelPrefix;

/** Audit annotation keys (upstream's, under this prefix). */
export const auditAnnotations = {
  enforcePolicy: `${labelPrefix}enforce-policy`,
  auditViolations: `${labelPrefix}audit-violations`,
  exempt: `${labelPrefix}exempt`,
} as const;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

/** How many existing pods a namespace label change is checked against (upstream's limit). */
export const namespacePodCheckLimit = 3000;

/**
 * The workload resources whose pod template is checked, and where the template is (the same
 * resources as `@orch/apimachinery/admission` podSecurityTemplateResources, which a test holds).
 */
export const podTemplatePaths: Record<string, string[]> = {
  '/podtemplates': ['template'],
  '/replicationcontrollers': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/deployments': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
};

export const policyString = (p: LevelVersion): string => `${p.level}:${versionString(p.version)}`;

/** The policy of a namespace: each mode from its labels, else the defaults; errors for bad labels. */
export function namespacePolicy(
  labels: Record<string, string> | undefined,
  defaults: Record<Mode, LevelVersion>
): { policy: Record<Mode, LevelVersion>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const policy = {} as Record<Mode, LevelVersion>;
  const path = newPath('metadata', 'labels');
  for (const mode of modes) {
    const p = { ...defaults[mode] };
    const levelKey = `${labelPrefix}${mode}`;
    const versionKey = `${levelKey}-version`;
    const l = labels?.[levelKey];
    let levelInvalid = false;
    if (l !== undefined) {
      const level = parseLevel(l);
      if (level) p.level = level;
      else {
        levelInvalid = true;
        errors.push(
          fieldInvalid(path.key(levelKey), l, 'must be one of privileged, baseline, restricted')
        );
      }
    }
    const v = labels?.[versionKey];
    if (v !== undefined) {
      const version = parseVersion(v);
      if (version === undefined) {
        errors.push(fieldInvalid(path.key(versionKey), v, 'must be "latest" or "v1.x"'));
      }
      p.version = version ?? 'latest';
    }
    // Upstream: an invalid level is evaluated as the most restrictive one, at latest.
    if (levelInvalid) {
      p.level = 'restricted';
      p.version = 'latest';
    }
    policy[mode] = p;
  }
  return { policy, errors };
}

/**
 * What the gateway must know of the configuration to tell when the plugin cannot act on a pod
 * controller (ListPlugins); undefined when the configuration cannot be used (the plugin is not
 * built then, and a call naming it fails).
 */
export function podSecurityScopeOf(raw: unknown): PodSecurityScope | undefined {
  let config: PodSecurityConfiguration;
  try {
    config = parsePodSecurityConfiguration(raw);
  } catch {
    return undefined;
  }
  return {
    defaultAuditLevel: config.defaults.audit.level,
    defaultWarnLevel: config.defaults.warn.level,
    exemptNamespaces: config.exemptions.namespaces,
    exemptUsernames: config.exemptions.usernames,
  };
}

const samePolicy = (a: LevelVersion, b: LevelVersion): boolean =>
  a.level === b.level && a.version === b.version;

function templateOf(object: ApiObject | undefined, path: readonly string[]): PodView | undefined {
  let cur: unknown = object;
  for (const p of path) cur = obj(cur)?.[p];
  const t = obj(cur);
  if (!t) return undefined;
  return { metadata: obj(t['metadata']) ?? {}, spec: obj(t['spec']) ?? {} };
}

const podView = (o: ApiObject | undefined): PodView => ({
  metadata: o?.metadata ?? {},
  spec: obj(o?.['spec']) ?? {},
});

/** A pod update that could change what the checks see (upstream's isSignificantPodUpdate). */
function significantPodUpdate(req: AdmissionRequest): boolean {
  if (req.operation !== 'UPDATE' || !req.oldObject) return true;
  const n = podView(req.object);
  const o = podView(req.oldObject);
  if (JSON.stringify(n.spec) !== JSON.stringify(o.spec)) return true;
  const apparmor = (a: Obj): string =>
    JSON.stringify(
      Object.entries(obj(a['annotations']) ?? {}).filter(([k]) =>
        k.startsWith('container.apparmor.security.beta.orch.io/')
      )
    );
  return apparmor(n.metadata) !== apparmor(o.metadata);
}

export function newPodSecurity(deps: PluginDeps): ServicePlugin {
  const config: PodSecurityConfiguration = parsePodSecurityConfiguration(deps.config);
  const exemptUsers = new Set(config.exemptions.usernames);
  const exemptNamespaces = new Set(config.exemptions.namespaces);
  const exemptRuntimeClasses = new Set(config.exemptions.runtimeClasses);
  let pods: Promise<ObjectLister> | undefined;

  const policyFor = async (
    namespace: string,
    name: string,
    resource: string,
    signal: AbortSignal
  ): Promise<Record<Mode, LevelVersion>> => {
    const ns = await lookupNamespace(deps.listers, namespace, signal);
    if (!ns) {
      // Upstream answers with an internal error when the namespace cannot be read.
      throw newInternalError(
        `failed to lookup namespace ${JSON.stringify(namespace)} for ${resource} ${JSON.stringify(name)}`
      );
    }
    return namespacePolicy(ns.metadata.labels, config.defaults).policy;
  };

  /** The exemption that applies to this request, if any (upstream checks namespace, then user). */
  const exemption = (req: AdmissionRequest): string | undefined => {
    if (exemptNamespaces.has(req.namespace)) return 'namespace';
    if (exemptUsers.has(req.userInfo.name)) return 'user';
    return undefined;
  };

  const validatePod = async (req: AdmissionRequest, ctx: AdmissionContext): Promise<void> => {
    const exempt = exemption(req);
    if (exempt) {
      ctx.annotate(auditAnnotations.exempt, exempt);
      return;
    }
    if (!significantPodUpdate(req)) return;
    const pod = podView(req.object);
    const runtimeClass = pod.spec['runtimeClassName'];
    if (typeof runtimeClass === 'string' && exemptRuntimeClasses.has(runtimeClass)) {
      ctx.annotate(auditAnnotations.exempt, 'runtimeClass');
      return;
    }
    const policy = await policyFor(req.namespace, req.name, 'pod', ctx.signal);
    ctx.annotate(auditAnnotations.enforcePolicy, policyString(policy.enforce));
    const enforce = evaluatePod(policy.enforce.level, policy.enforce.version, pod);
    if (enforce.length > 0) {
      if (samePolicy(policy.audit, policy.enforce)) {
        ctx.annotate(
          auditAnnotations.auditViolations,
          `would violate PodSecurity ${JSON.stringify(policyString(policy.audit))}: ${describeResults(enforce)}`
        );
      }
      throw newForbidden(
        { group: '', resource: 'pods' },
        req.name,
        `violates PodSecurity ${JSON.stringify(policyString(policy.enforce))}: ${describeResults(enforce)}`
      );
    }
    auditAndWarn(policy, pod, ctx, false);
  };

  /** The audit and warn modes (and, for templates, enforce as a warning). */
  const auditAndWarn = (
    policy: Record<Mode, LevelVersion>,
    pod: PodView,
    ctx: AdmissionContext,
    template: boolean
  ): void => {
    const cache = new Map<string, CheckResult[]>();
    const evaluate = (p: LevelVersion): CheckResult[] => {
      const key = policyString(p);
      let r = cache.get(key);
      if (!r) {
        r = evaluatePod(p.level, p.version, pod);
        cache.set(key, r);
      }
      return r;
    };
    const warned = new Set<string>();
    const warn = (p: LevelVersion): void => {
      const key = policyString(p);
      if (warned.has(key)) return;
      const r = evaluate(p);
      if (r.length === 0) return;
      warned.add(key);
      ctx.warn(`would violate PodSecurity ${JSON.stringify(key)}: ${describeResults(r)}`);
    };
    if (template) warn(policy.enforce);
    const audit = evaluate(policy.audit);
    if (audit.length > 0) {
      ctx.annotate(
        auditAnnotations.auditViolations,
        `would violate PodSecurity ${JSON.stringify(policyString(policy.audit))}: ${describeResults(audit)}`
      );
    }
    warn(policy.warn);
  };

  const validateTemplate = async (
    req: AdmissionRequest,
    ctx: AdmissionContext,
    path: string[]
  ): Promise<void> => {
    if (exemption(req)) {
      ctx.annotate(auditAnnotations.exempt, exemption(req)!);
      return;
    }
    const pod = templateOf(req.object, path);
    if (!pod) return;
    if (req.operation === 'UPDATE') {
      const old = templateOf(req.oldObject, path);
      if (old && JSON.stringify(old) === JSON.stringify(pod)) return;
    }
    const runtimeClass = pod.spec['runtimeClassName'];
    if (typeof runtimeClass === 'string' && exemptRuntimeClasses.has(runtimeClass)) return;
    const policy = await policyFor(req.namespace, req.name, req.resource.resource, ctx.signal);
    auditAndWarn(policy, pod, ctx, true);
  };

  const validateNamespace = async (req: AdmissionRequest, ctx: AdmissionContext): Promise<void> => {
    if (req.subResource !== '') return;
    const labels = req.object?.metadata.labels;
    const { policy, errors } = namespacePolicy(labels, config.defaults);
    if (errors.length > 0) {
      throw newInvalid({ group: '', kind: 'Namespace' }, req.name, errors);
    }
    if (req.operation !== 'UPDATE' || !req.oldObject) return;
    const old = namespacePolicy(req.oldObject.metadata.labels, config.defaults).policy;
    if (samePolicy(old.enforce, policy.enforce) || policy.enforce.level === 'privileged') return;
    if (exemptNamespaces.has(req.name)) return;
    pods ??= deps.listers.forResource('', 'pods');
    const lister = await pods;
    // Upstream checks at most namespacePodCheckLimit pods, and pods of one controller once.
    const all = lister.list(req.name);
    const checked = all.slice(0, namespacePodCheckLimit);
    const byOwner = new Map<string, { name: string; more: number; reasons: string }>();
    const offending: { name: string; more: number; reasons: string }[] = [];
    for (const p of checked) {
      const view = podView(p);
      const rc = view.spec['runtimeClassName'];
      if (typeof rc === 'string' && exemptRuntimeClasses.has(rc)) continue;
      const r = evaluatePod(policy.enforce.level, policy.enforce.version, view);
      if (r.length === 0) continue;
      const reasons = reasonsOf(r);
      const owner = p.metadata.ownerReferences?.find((o) => o.controller)?.uid;
      const key = owner ? `${owner}/${reasons}` : undefined;
      const seen = key ? byOwner.get(key) : undefined;
      if (seen) {
        seen.more++;
        continue;
      }
      const entry = { name: p.metadata.name ?? '', more: 0, reasons };
      if (key) byOwner.set(key, entry);
      offending.push(entry);
    }
    if (checked.length < all.length) {
      ctx.warn(
        `new PodSecurity enforce level only checked against the first ${checked.length} of ${all.length} existing pods`
      );
    }
    if (offending.length === 0) return;
    ctx.warn(
      `existing pods in namespace ${JSON.stringify(req.name)} violate the new PodSecurity enforce level ${JSON.stringify(policyString(policy.enforce))}`
    );
    offending.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const o of offending) {
      ctx.warn(
        o.more > 0
          ? `${o.name} (and ${o.more} other pods): ${o.reasons}`
          : `${o.name}: ${o.reasons}`
      );
    }
  };

  const relevant = (req: AdmissionRequest): 'pod' | 'namespace' | string[] | undefined => {
    const { group, resource } = req.resource;
    if (group === '' && resource === 'pods') {
      return req.subResource === '' || req.subResource === 'ephemeralcontainers'
        ? 'pod'
        : undefined;
    }
    if (group === '' && resource === 'namespaces') return 'namespace';
    if (req.subResource !== '') return undefined;
    return podTemplatePaths[`${group}/${resource}`];
  };

  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    mayValidate: async (req) => relevant(req) !== undefined,
    async validate(req, ctx) {
      const what = relevant(req);
      if (what === undefined) return;
      if (what === 'namespace') return validateNamespace(req, ctx);
      if (!req.object) return;
      if (what === 'pod') return validatePod(req, ctx);
      return validateTemplate(req, ctx, what);
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newPodSecurity);
}
