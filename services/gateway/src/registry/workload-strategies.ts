// The strategies of the workload and autoscaling kinds, keyed `<group>/<resource>` as
// strategies.ts looks them up (HPAs have one strategy for both served versions: it sees v2).
import { controllerRevisionStrategy } from './apps/controllerrevisions/strategy.js';
import { daemonSetStrategy } from './apps/daemonsets/strategy.js';
import { deploymentStrategy } from './apps/deployments/strategy.js';
import { replicaSetStrategy } from './apps/replicasets/strategy.js';
import { statefulSetStrategy } from './apps/statefulsets/strategy.js';
import { horizontalPodAutoscalerStrategy } from './autoscaling/horizontalpodautoscalers/strategy.js';
import { cronJobStrategy } from './batch/cronjobs/strategy.js';
import { jobStrategy } from './batch/jobs/strategy.js';
import { endpointsStrategy } from './core/endpoints/strategy.js';
import { podTemplateStrategy } from './core/podtemplates/strategy.js';
import { replicationControllerStrategy } from './core/replicationcontrollers/strategy.js';
import { podDisruptionBudgetStrategy } from './policy/poddisruptionbudgets/strategy.js';
import type { Strategy } from './strategy.js';

export const workloadStrategies: Record<string, Strategy> = {
  '/podtemplates': podTemplateStrategy,
  '/replicationcontrollers': replicationControllerStrategy,
  '/endpoints': endpointsStrategy,
  'apps/deployments': deploymentStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'apps/controllerrevisions': controllerRevisionStrategy,
  'batch/jobs': jobStrategy,
  'batch/cronjobs': cronJobStrategy,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerStrategy,
  'policy/poddisruptionbudgets': podDisruptionBudgetStrategy,
};
