// The computed defaults of the apps group's messages (SetDefaults_* of k8s pkg/apis/apps/v1/
// defaults.go), one function per message as applyDefaults runs them; their constant defaults
// are default_value options in proto/.
import type { Defaulter } from '../types.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const objectAt = (o: Json, k: string): Json | undefined => (isObject(o[k]) ? o[k] : undefined);

/** SetDefaults_Deployment, its strategy part: a rolling update surges and drops 25%. */
const deploymentStrategy: Defaulter = (strategy) => {
  if (strategy['type'] !== 'RollingUpdate') return;
  const rolling = (strategy['rollingUpdate'] = objectAt(strategy, 'rollingUpdate') ?? {});
  rolling['maxUnavailable'] ??= '25%';
  rolling['maxSurge'] ??= '25%';
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

export const appsDefaulters: readonly (readonly [string, Defaulter])[] = [
  ['orch.api.apps.v1.DeploymentStrategy', deploymentStrategy],
  ['orch.api.apps.v1.StatefulSetUpdateStrategy', statefulSetUpdateStrategy],
  ['orch.api.apps.v1.DaemonSetUpdateStrategy', daemonSetUpdateStrategy],
];
