// API Priority and Fairness objects for tests and the bench that hold a flow to a few seats:
// a priority level of a few nominal shares, nothing lent or borrowed, one short queue (hand
// size 1), so that what the seats and the queue cannot take is refused with 429; and a
// FlowSchema (distinguished by user) putting one user's matching requests in it.
export const flowcontrolGroup = 'flowcontrol.apiserver.orch.io';
export const flowSchemasPath = `/apis/${flowcontrolGroup}/v1/flowschemas`;
export const priorityLevelsPath = `/apis/${flowcontrolGroup}/v1/prioritylevelconfigurations`;

export interface FlowResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}

/** A Limited level of `shares` nominal shares (a gateway's 600 seats split by all shares). */
export function queuedPriorityLevel(
  name: string,
  shares: number,
  queueLengthLimit: number
): Record<string, unknown> {
  return {
    apiVersion: `${flowcontrolGroup}/v1`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares,
        lendablePercent: 0,
        borrowingLimitPercent: 0,
        limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit } },
      },
    },
  };
}

/** A FlowSchema named `name` sending `user`'s requests that match `rule` to the level `name`. */
export function userFlowSchema(
  name: string,
  user: string,
  rule: FlowResourceRule,
  matchingPrecedence: number
): Record<string, unknown> {
  return {
    apiVersion: `${flowcontrolGroup}/v1`,
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name },
      matchingPrecedence,
      distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'User', user: { name: user } }], resourceRules: [rule] }],
    },
  };
}
