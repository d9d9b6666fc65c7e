// The computed defaults of the workload kinds (SetDefaults_* of k8s pkg/apis/{core,apps,batch}/v1
// /defaults.go), one function per message as builtin-defaulters.ts runs them; their constant
// defaults are default_value options in proto/.
type Json = Record<string, unknown>;
type Defaulter = (obj: Json) => void;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const objectAt = (o: Json, k: string): Json | undefined => (isObject(o[k]) ? o[k] : undefined);
const metadata = (o: Json): Json =>
  isObject(o['metadata']) ? o['metadata'] : (o['metadata'] = {});
const nonEmpty = (v: unknown): v is Json => isObject(v) && Object.keys(v).length > 0;

/** SetDefaults_ReplicationController: selector and labels from the template's labels. */
const replicationController: Defaulter = (rc) => {
  const spec = objectAt(rc, 'spec');
  const labels = spec && objectAt(objectAt(spec, 'template') ?? {}, 'metadata')?.['labels'];
  if (!spec || !isObject(labels)) return;
  if (!nonEmpty(spec['selector'])) spec['selector'] = { ...labels };
  const meta = metadata(rc);
  if (!nonEmpty(meta['labels'])) meta['labels'] = { ...labels };
};

/** SetDefaults_Job: completions and parallelism, completion mode, suspend, backoffLimit, the replacement policy, labels (only on Jobs, not in a CronJob's job template). */
const job: Defaulter = (j) => {
  const spec = objectAt(j, 'spec');
  if (!spec) return;
  if (spec['completions'] === undefined && spec['parallelism'] === undefined) {
    spec['completions'] = 1;
    spec['parallelism'] = 1;
  }
  spec['parallelism'] ??= 1;
  spec['completionMode'] ??= 'NonIndexed';
  spec['suspend'] ??= false;
  spec['backoffLimit'] ??= spec['backoffLimitPerIndex'] !== undefined ? 2147483647 : 6;
  spec['podReplacementPolicy'] ??=
    spec['podFailurePolicy'] !== undefined ? 'Failed' : 'TerminatingOrFailed';
  const labels = objectAt(objectAt(spec, 'template') ?? {}, 'metadata')?.['labels'];
  const meta = metadata(j);
  if (isObject(labels) && !nonEmpty(meta['labels'])) meta['labels'] = { ...labels };
};

/** SetDefaults_StatefulSet, its update strategy part: a rolling update starts at partition 0. */
const statefulSetUpdateStrategy: Defaulter = (s) => {
  if (s['type'] !== 'RollingUpdate') return;
  const rolling = (s['rollingUpdate'] = objectAt(s, 'rollingUpdate') ?? {});
  rolling['partition'] ??= 0;
};

/** SetDefaults_DaemonSet, its update strategy part: one unavailable, no surge. */
const daemonSetUpdateStrategy: Defaulter = (s) => {
  if (s['type'] !== 'RollingUpdate') return;
  const rolling = (s['rollingUpdate'] = objectAt(s, 'rollingUpdate') ?? {});
  rolling['maxUnavailable'] ??= 1;
  rolling['maxSurge'] ??= 0;
};

export const workloadDefaulters: readonly [string, Defaulter][] = [
  ['orch.api.core.v1.ReplicationController', replicationController],
  ['orch.api.batch.v1.Job', job],
  ['orch.api.apps.v1.StatefulSetUpdateStrategy', statefulSetUpdateStrategy],
  ['orch.api.apps.v1.DaemonSetUpdateStrategy', daemonSetUpdateStrategy],
];
