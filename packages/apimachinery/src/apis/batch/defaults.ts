// The computed defaults of the batch group's messages (SetDefaults_* of k8s pkg/apis/batch/v1/
// defaults.go), one function per message as applyDefaults runs them; their constant defaults
// are default_value options in proto/.
import type { Defaulter } from '../types.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const objectAt = (o: Json, k: string): Json | undefined => (isObject(o[k]) ? o[k] : undefined);
const metadata = (o: Json): Json =>
  isObject(o['metadata']) ? o['metadata'] : (o['metadata'] = {});
const nonEmpty = (v: unknown): v is Json => isObject(v) && Object.keys(v).length > 0;

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

export const batchDefaulters: readonly (readonly [string, Defaulter])[] = [
  ['orch.api.batch.v1.Job', job],
];
