// The Dangling condition of a FlowSchema (k8s apf_controller.go, digestFlowSchemasLocked): True
// when its priority level does not exist, False when it does; written only when its status
// changes, so gateways agreeing on it write it once between them. Its time is RFC 3339 in whole
// seconds, as metav1.Time is written (and as the binary envelope keeps it).
import type { FlowSchema, FlowSchemaCondition } from '@orch/api/flowcontrol/v1';
import { formatTimestamp } from '@orch/apimachinery/meta';

export function danglingCondition(
  fs: FlowSchema,
  levelNames: ReadonlySet<string>
): FlowSchemaCondition {
  const name = fs.spec.priorityLevelConfiguration.name;
  return levelNames.has(name)
    ? {
        type: 'Dangling',
        status: 'False',
        reason: 'Found',
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${name}" and it exists`,
      }
    : {
        type: 'Dangling',
        status: 'True',
        reason: 'NotFound',
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${name}" but there is no such object`,
      };
}

/** Whether the schema's Dangling condition already has `want`'s status and reason. */
export function showsDangling(fs: FlowSchema, want: FlowSchemaCondition): boolean {
  const have = fs.status?.conditions?.find((c) => c.type === 'Dangling');
  return have?.status === want.status && have?.reason === want.reason;
}

/** The schema with its Dangling condition set, or undefined when it already has that status. */
export function withDanglingCondition(
  fs: FlowSchema,
  levelNames: ReadonlySet<string>,
  now: Date
): FlowSchema | undefined {
  const want = danglingCondition(fs, levelNames);
  if (showsDangling(fs, want)) return undefined;
  const conditions = fs.status?.conditions ?? [];
  return {
    ...fs,
    status: {
      ...fs.status,
      conditions: [
        ...conditions.filter((c) => c.type !== 'Dangling'),
        { ...want, lastTransitionTime: formatTimestamp(now) },
      ],
    },
  };
}
