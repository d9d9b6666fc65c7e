// ValidatePodSpec as upstream's pkg/apis/core/validation/validation.go writes the parts that
// matter most: container and initContainer names (DNS labels, unique across both), images,
// ports, env and envFrom, volume mounts naming volumes, volumes with exactly one source,
// resources (valid quantities, requests <= limits), probes with exactly one handler,
// dnsPolicy, nodeSelector, tolerations, terminationGracePeriodSeconds and
// activeDeadlineSeconds, with upstream's field paths and messages.
import {
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotFound,
  fieldNotSupported,
  fieldRequired,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isDNS1123Label, isNegativeErrorMsg, validateLabels } from '@orch/apimachinery/meta';
import { compareQuantities, parseQuantity } from '@orch/apimachinery/quota';
import type { Quantity } from '@orch/apimachinery/quota';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const listAt = (o: Json, key: string): unknown[] => (Array.isArray(o[key]) ? o[key] : []);
const objAt = (o: Json, key: string): Json => (isObject(o[key]) ? o[key] : {});
const present = (v: unknown): boolean => v !== undefined && v !== null;

const volumeSources = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
] as const;
const envSources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'] as const;
const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const protocols = ['SCTP', 'TCP', 'UDP'] as const;
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'] as const;
const tolerationOps = ['Equal', 'Exists'] as const;
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
const pullPolicies = ['Always', 'IfNotPresent', 'Never'] as const;

const portRangeMsg = 'must be between 1 and 65535, inclusive';
const int32RangeMsg = 'must be between 1 and 2147483647, inclusive';

function dnsLabel(value: unknown, path: FieldPath): FieldError[] {
  if (typeof value !== 'string' || value === '') return [fieldRequired(path, '')];
  return isDNS1123Label(value).map((m) => fieldInvalid(path, value, m));
}

function nonNegative(value: unknown, path: FieldPath): FieldError[] {
  return typeof value === 'number' && value < 0
    ? [fieldInvalid(path, value, isNegativeErrorMsg)]
    : [];
}

/** validateVolumes: unique DNS-label names, exactly one source each. Returns the names. */
function validateVolumes(volumes: unknown[], path: FieldPath, errs: FieldError[]): Set<string> {
  const names = new Set<string>();
  volumes.forEach((v, i) => {
    const p = path.index(i);
    const vol = isObject(v) ? v : {};
    const name = vol['name'];
    const nameErrs = dnsLabel(name, p.child('name'));
    errs.push(...nameErrs);
    if (typeof name === 'string' && nameErrs.length === 0) {
      if (names.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
      names.add(name);
    }
    const sources = volumeSources.filter((s) => present(vol[s]));
    if (sources.length === 0) errs.push(fieldRequired(p, 'must specify a volume type'));
    else if (sources.length > 1) {
      errs.push(fieldForbidden(p.child(sources[1]!), 'may not specify more than 1 volume type'));
    }
  });
  return names;
}

/** validateEnv and validateEnvFrom. */
function validateEnv(c: Json, path: FieldPath, errs: FieldError[]): void {
  listAt(c, 'env').forEach((e, i) => {
    const p = path.child('env').index(i);
    const env = isObject(e) ? e : {};
    const name = env['name'];
    if (typeof name !== 'string' || name === '') errs.push(fieldRequired(p.child('name'), ''));
    if (isObject(env['valueFrom'])) {
      const from = env['valueFrom'];
      const set = envSources.filter((s) => present(from[s]));
      if (set.length === 0) {
        errs.push(
          fieldInvalid(
            p.child('valueFrom'),
            '',
            'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'
          )
        );
      } else if (set.length > 1) {
        errs.push(
          fieldInvalid(
            p.child('valueFrom'),
            '',
            'may not have more than one field specified at a time'
          )
        );
      }
      if (typeof env['value'] === 'string' && env['value'] !== '') {
        errs.push(
          fieldInvalid(p.child('valueFrom'), '', 'may not be specified when `value` is not empty')
        );
      }
    }
  });
  listAt(c, 'envFrom').forEach((e, i) => {
    const p = path.child('envFrom').index(i);
    const src = isObject(e) ? e : {};
    const set = (['configMapRef', 'secretRef'] as const).filter((s) => present(src[s]));
    if (set.length === 0) {
      errs.push(fieldInvalid(p, '', 'must specify one of: `configMapRef` or `secretRef`'));
    } else if (set.length > 1) {
      errs.push(fieldInvalid(p, '', 'may not have more than one field specified at a time'));
    }
  });
}

/** ValidateResourceRequirements: valid quantities, each request at most its limit. */
function validateResources(c: Json, path: FieldPath, errs: FieldError[]): void {
  const res = objAt(c, 'resources');
  const parsed = (kind: 'limits' | 'requests'): Map<string, Quantity> => {
    const out = new Map<string, Quantity>();
    for (const [name, v] of Object.entries(objAt(res, kind))) {
      const text = typeof v === 'number' ? String(v) : v;
      const q = typeof text === 'string' ? parseQuantity(text) : undefined;
      if (q === undefined) {
        errs.push(
          fieldInvalid(path.child('resources', kind).key(name), v, 'must be a valid quantity')
        );
      } else if (q.nano < 0n) {
        errs.push(fieldInvalid(path.child('resources', kind).key(name), v, isNegativeErrorMsg));
      } else out.set(name, q);
    }
    return out;
  };
  const limits = parsed('limits');
  const requests = parsed('requests');
  for (const [name, req] of requests) {
    const lim = limits.get(name);
    if (lim !== undefined && compareQuantities(req, lim) > 0) {
      const limText = objAt(res, 'limits')[name];
      errs.push(
        fieldInvalid(
          path.child('resources', 'requests').key(name),
          objAt(res, 'requests')[name],
          `must be less than or equal to ${name} limit of ${String(limText)}`
        )
      );
    }
  }
}

/** validateProbe: exactly one handler, non-negative timings. */
function validateProbe(probe: unknown, path: FieldPath, errs: FieldError[]): void {
  if (!isObject(probe)) return;
  const set = handlers.filter((h) => present(probe[h]));
  if (set.length === 0) errs.push(fieldRequired(path, 'must specify a handler type'));
  else if (set.length > 1) {
    errs.push(fieldForbidden(path.child(set[1]!), 'may not specify more than 1 handler type'));
  }
  for (const f of [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold',
  ]) {
    errs.push(...nonNegative(probe[f], path.child(f)));
  }
  const tgp = probe['terminationGracePeriodSeconds'];
  if (typeof tgp === 'number' && tgp <= 0) {
    errs.push(
      fieldInvalid(path.child('terminationGracePeriodSeconds'), tgp, 'must be greater than 0')
    );
  }
}

function validateContainer(
  c: Json,
  path: FieldPath,
  volumes: Set<string>,
  init: boolean,
  errs: FieldError[]
): void {
  if (typeof c['image'] !== 'string' || c['image'].trim() === '') {
    errs.push(fieldRequired(path.child('image'), ''));
  }
  const pull = c['imagePullPolicy'];
  if (typeof pull === 'string' && !(pullPolicies as readonly string[]).includes(pull)) {
    errs.push(fieldNotSupported(path.child('imagePullPolicy'), pull, pullPolicies));
  }
  const portNames = new Set<string>();
  listAt(c, 'ports').forEach((pt, i) => {
    const p = path.child('ports').index(i);
    const port = isObject(pt) ? pt : {};
    const name = port['name'];
    if (typeof name === 'string' && name !== '') {
      if (portNames.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
      portNames.add(name);
    }
    const cp = port['containerPort'];
    if (cp === undefined || cp === 0) errs.push(fieldRequired(p.child('containerPort'), ''));
    else if (typeof cp !== 'number' || !Number.isInteger(cp) || cp < 1 || cp > 65535) {
      errs.push(fieldInvalid(p.child('containerPort'), cp, portRangeMsg));
    }
    const hp = port['hostPort'];
    if (typeof hp === 'number' && hp !== 0 && (hp < 1 || hp > 65535)) {
      errs.push(fieldInvalid(p.child('hostPort'), hp, portRangeMsg));
    }
    const proto = port['protocol'];
    if (proto !== undefined && !(protocols as readonly unknown[]).includes(proto)) {
      errs.push(fieldNotSupported(p.child('protocol'), proto, protocols));
    }
  });
  validateEnv(c, path, errs);
  const mountPaths = new Set<string>();
  listAt(c, 'volumeMounts').forEach((m, i) => {
    const p = path.child('volumeMounts').index(i);
    const mnt = isObject(m) ? m : {};
    const name = mnt['name'];
    if (typeof name !== 'string' || name === '') errs.push(fieldRequired(p.child('name'), ''));
    else if (!volumes.has(name)) errs.push(fieldNotFound(p.child('name'), name));
    const mp = mnt['mountPath'];
    if (typeof mp !== 'string' || mp === '') errs.push(fieldRequired(p.child('mountPath'), ''));
    else if (mountPaths.has(mp))
      errs.push(fieldInvalid(p.child('mountPath'), mp, 'must be unique'));
    else mountPaths.add(mp);
  });
  validateResources(c, path, errs);
  if (init) {
    for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (present(c[f]) && c['restartPolicy'] !== 'Always') {
        errs.push(
          fieldForbidden(
            path.child(f),
            `may not be set for init containers without restartPolicy=Always`
          )
        );
      }
    }
  } else {
    for (const f of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      validateProbe(c[f], path.child(f), errs);
    }
    const lp = c['livenessProbe'];
    if (
      isObject(lp) &&
      typeof lp['successThreshold'] === 'number' &&
      lp['successThreshold'] !== 1
    ) {
      errs.push(
        fieldInvalid(
          path.child('livenessProbe', 'successThreshold'),
          lp['successThreshold'],
          'must be 1'
        )
      );
    }
  }
  const sc = objAt(c, 'securityContext');
  for (const f of ['runAsUser', 'runAsGroup'])
    errs.push(...nonNegative(sc[f], path.child('securityContext', f)));
  if (sc['privileged'] === true && sc['allowPrivilegeEscalation'] === false) {
    errs.push(
      fieldInvalid(
        path.child('securityContext'),
        sc,
        'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'
      )
    );
  }
}

/** validateTolerations: operator and effect rules. */
function validateTolerations(tolerations: unknown[], path: FieldPath, errs: FieldError[]): void {
  tolerations.forEach((t, i) => {
    const p = path.index(i);
    const tol = isObject(t) ? t : {};
    const key = tol['key'];
    const op = tol['operator'] ?? 'Equal';
    if (typeof key === 'string' && key !== '') {
      errs.push(...validateLabels({ [key]: '' }, p.child('key')).filter((e) => e.value === key));
    } else if (op !== 'Exists') {
      errs.push(
        fieldInvalid(
          p.child('operator'),
          op,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"'
        )
      );
    }
    const effect = tol['effect'];
    if (present(tol['tolerationSeconds']) && effect !== 'NoExecute') {
      errs.push(
        fieldInvalid(
          p.child('effect'),
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set"
        )
      );
    }
    if (op === 'Equal') {
      const value = tol['value'];
      if (typeof value === 'string' && value !== '') {
        errs.push(
          ...validateLabels({ k: value }, p.child('value')).filter((e) => e.value === value)
        );
      }
    } else if (op === 'Exists') {
      if (typeof tol['value'] === 'string' && tol['value'] !== '') {
        errs.push(
          fieldInvalid(p.child('operator'), tol, "value must be empty when `operator` is 'Exists'")
        );
      }
    } else {
      errs.push(fieldNotSupported(p.child('operator'), op, tolerationOps));
    }
    if (
      typeof effect === 'string' &&
      effect !== '' &&
      !(taintEffects as readonly string[]).includes(effect)
    ) {
      errs.push(fieldNotSupported(p.child('effect'), effect, taintEffects));
    }
  });
}

/**
 * ValidatePodSpec (the parts listed in the file head) of a pod's or template's spec at `path`
 * (`spec` or `spec.template.spec`). The restart policy is left to the caller: a template's
 * controller allows fewer than a pod does.
 */
export function validatePodSpec(spec: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const volumes = validateVolumes(listAt(spec, 'volumes'), path.child('volumes'), errs);
  const containers = listAt(spec, 'containers');
  if (containers.length === 0) errs.push(fieldRequired(path.child('containers'), ''));
  const names = new Set<string>();
  const each = (field: 'initContainers' | 'containers'): void => {
    listAt(spec, field).forEach((c, i) => {
      const p = path.child(field).index(i);
      const ctr = isObject(c) ? c : {};
      const name = ctr['name'];
      const nameErrs = dnsLabel(name, p.child('name'));
      errs.push(...nameErrs);
      if (typeof name === 'string' && nameErrs.length === 0) {
        if (names.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
        names.add(name);
      }
      validateContainer(ctr, p, volumes, field === 'initContainers', errs);
    });
  };
  each('initContainers');
  each('containers');
  const dns = spec['dnsPolicy'];
  if (dns !== undefined && !(dnsPolicies as readonly unknown[]).includes(dns)) {
    errs.push(fieldNotSupported(path.child('dnsPolicy'), dns, dnsPolicies));
  }
  if (dns === 'None' && !isObject(spec['dnsConfig'])) {
    errs.push(
      fieldRequired(path.child('dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None')
    );
  }
  if (isObject(spec['nodeSelector'])) {
    errs.push(
      ...validateLabels(spec['nodeSelector'] as Record<string, string>, path.child('nodeSelector'))
    );
  }
  validateTolerations(listAt(spec, 'tolerations'), path.child('tolerations'), errs);
  errs.push(
    ...nonNegative(
      spec['terminationGracePeriodSeconds'],
      path.child('terminationGracePeriodSeconds')
    )
  );
  const ads = spec['activeDeadlineSeconds'];
  if (
    ads !== undefined &&
    ads !== null &&
    (typeof ads !== 'number' || ads < 1 || ads > 2147483647)
  ) {
    errs.push(fieldInvalid(path.child('activeDeadlineSeconds'), ads, int32RangeMsg));
  }
  listAt(spec, 'hostAliases').forEach((h, i) => {
    const p = path.child('hostAliases').index(i);
    if (!isObject(h) || typeof h['ip'] !== 'string' || h['ip'] === '') {
      errs.push(fieldRequired(p.child('ip'), ''));
    }
  });
  if (present(spec['priority']) && typeof spec['priorityClassName'] !== 'string') {
    // Upstream's Priority admission plugin resolves the value; a bare number is still an int32.
    if (typeof spec['priority'] !== 'number') {
      errs.push(fieldInvalid(path.child('priority'), spec['priority'], 'must be an integer'));
    }
  }
  return errs;
}
