// The autoscaling group (upstream pkg/apis/autoscaling): HorizontalPodAutoscaler in v1 and v2.
import type { APIGroupDefinition } from '../types.js';
import { autoscalingTablePrinters } from './printers.js';
import { addAutoscalingConversions } from './conversion.js';
import { autoscalingResources } from './resources.js';

export const autoscaling: APIGroupDefinition = {
  name: 'autoscaling',
  resources: autoscalingResources,
  addConversions: addAutoscalingConversions,
  tablePrinters: autoscalingTablePrinters,
};
export {
  defaultCpuUtilization,
  dropHpaRoundTripAnnotations,
  hpaBehaviorAnnotation,
  hpaConditionsAnnotation,
  hpaMetricSpecsAnnotation,
  hpaMetricStatusesAnnotation,
  hpaV1ToV2,
  hpaV2ToV1,
} from './conversion.js';
