// ServiceAccount (k8s.io/kubernetes plugin/pkg/admission/serviceaccount, admission.go): a new
// pod runs as a service account. Admit sets `spec.serviceAccountName` to `default` when empty,
// refuses the pod when the account does not exist (the `default` one is looked for again for a
// short while, as upstream retries, since its controller creates it right after the namespace),
// and, unless the pod or the account opts out with `automountServiceAccountToken: false`,
// mounts the API credentials as upstream: a projected volume `kube-api-access-<5 random>` with
// a bound token (3607 s), the cluster CA (ConfigMap `kube-root-ca.crt`) and the namespace,
// read-only at /var/run/secrets/kubernetes.io/serviceaccount in every container and init
// container that has nothing mounted there. Validate refuses a pod naming no account or one
// that does not exist, and a mirror pod (annotation `orch.io/config.mirror`) that names an
// account or mounts secrets, config maps or projected volumes.
import { newForbidden } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ServiceAccount } from '@orch/api/core/v1';
import type {
  AdmissionRequest,
  ObjectLister,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'ServiceAccount' satisfies ServicePluginName;

export const defaultServiceAccountName = 'default';
export const serviceAccountMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
export const rootCaConfigMapName = 'kube-root-ca.crt';
export const mirrorPodAnnotation = 'orch.io/config.mirror';
/** Upstream's bound token lifetime for this volume (an hour, and 7 s so it is recognisable). */
export const tokenExpirationSeconds = 3607;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x): x is Obj => !!obj(x)) : []);

/** Upstream's utilrand alphabet: no vowels, no confusable digits. */
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
function randomSuffix(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
  return s;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface ServiceAccountOptions {
  /** Tries to find `default` before giving up (upstream: 10). */
  defaultAttempts?: number;
  /** Wait between tries, ms (upstream: 100 to 200 ms). */
  retryIntervalMs?: number;
}

const isPods = (req: AdmissionRequest): boolean =>
  req.resource.group === '' && req.resource.resource === 'pods' && req.subResource === '';

export function newServiceAccount(
  deps: PluginDeps,
  opts: ServiceAccountOptions = {}
): ServicePlugin {
  const defaultAttempts = opts.defaultAttempts ?? 10;
  const interval = opts.retryIntervalMs ?? 100 + Math.floor(Math.random() * 100);
  let lister: Promise<ObjectLister> | undefined;

  /** The account, looked up again a while for `default` (upstream's getServiceAccount). */
  const getServiceAccount = async (
    namespace: string,
    name: string,
    signal: AbortSignal
  ): Promise<ApiObject | undefined> => {
    lister ??= deps.listers.forResource('', 'serviceaccounts');
    const l = await lister;
    const attempts = name === defaultServiceAccountName ? defaultAttempts : 1;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) {
        if (signal.aborted) break;
        await sleep(interval);
      }
      const sa = l.get(namespace, name);
      if (sa) return sa;
    }
    return undefined;
  };

  const lookupFailed = (req: AdmissionRequest, name: string) =>
    newForbidden(
      { group: '', resource: 'pods' },
      req.name,
      `error looking up service account ${req.namespace}/${name}: serviceaccount ${JSON.stringify(name)} not found`
    );

  return {
    name: pluginName,
    handles: (op) => op === 'CREATE',
    mayValidate: async (req) => isPods(req),
    async admit(req, ctx) {
      if (!isPods(req) || !req.object) return;
      const pod = structuredClone(req.object) as ApiObject & { spec?: Obj };
      if (pod.metadata.annotations?.[mirrorPodAnnotation] !== undefined) return;
      const spec: Obj = (pod.spec ??= {});
      if (!spec['serviceAccountName']) spec['serviceAccountName'] = defaultServiceAccountName;
      const name = String(spec['serviceAccountName']);
      const sa: ServiceAccount | undefined = await getServiceAccount(
        req.namespace,
        name,
        ctx.signal
      );
      if (!sa) throw lookupFailed(req, name);
      const automount =
        typeof spec['automountServiceAccountToken'] === 'boolean'
          ? spec['automountServiceAccountToken']
          : sa.automountServiceAccountToken !== false;
      if (automount) mountServiceAccountToken(spec);
      req.object = pod;
    },
    async validate(req, ctx) {
      if (!isPods(req) || !req.object) return;
      const pod = req.object as ApiObject & { spec?: Obj };
      const spec = pod.spec ?? {};
      if (pod.metadata.annotations?.[mirrorPodAnnotation] !== undefined) {
        const forbid = (why: string) =>
          newForbidden({ group: '', resource: 'pods' }, req.name, why);
        if (spec['serviceAccountName']) {
          throw forbid('a mirror pod may not reference service accounts');
        }
        for (const v of arr(spec['volumes'])) {
          if (v['secret']) {
            throw forbid(`a mirror pod may not reference secrets`);
          }
          if (v['configMap']) {
            throw forbid(`a mirror pod may not reference configmaps`);
          }
          if (v['projected']) {
            throw forbid(`a mirror pod may not use projected volumes`);
          }
        }
        return;
      }
      const name = spec['serviceAccountName'];
      if (typeof name !== 'string' || name === '') {
        throw newForbidden(
          { group: '', resource: 'pods' },
          req.name,
          `no service account specified for pod ${req.namespace}/${req.name}`
        );
      }
      const sa = await getServiceAccount(req.namespace, name, ctx.signal);
      if (!sa) throw lookupFailed(req, name);
    },
  };
}

/**
 * Adds the API access volume and its mounts (upstream's mountServiceAccountToken): nothing when
 * a volume already projects a service account token mounted at the path in every container.
 */
export function mountServiceAccountToken(spec: Obj): void {
  const containersOf = (): Obj[] => [...arr(spec['initContainers']), ...arr(spec['containers'])];
  const needing = containersOf().filter(
    (c) => !arr(c['volumeMounts']).some((m) => m['mountPath'] === serviceAccountMountPath)
  );
  if (needing.length === 0) return;
  const volumes = arr(spec['volumes']);
  const taken = new Set(volumes.map((v) => String(v['name'] ?? '')));
  let name: string;
  do name = `kube-api-access-${randomSuffix(5)}`;
  while (taken.has(name));
  volumes.push({
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: tokenExpirationSeconds, path: 'token' } },
        { configMap: { name: rootCaConfigMapName, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [
              {
                path: 'namespace',
                fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' },
              },
            ],
          },
        },
      ],
      defaultMode: 0o644,
    },
  });
  spec['volumes'] = volumes;
  for (const c of needing) {
    const mounts = arr(c['volumeMounts']);
    mounts.push({ name, readOnly: true, mountPath: serviceAccountMountPath });
    c['volumeMounts'] = mounts;
  }
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, (deps) => newServiceAccount(deps));
}
