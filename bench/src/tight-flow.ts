// A flow held to a few seats, for the steps that flood: a PriorityLevelConfiguration of 1 share
// (about 3 of a gateway's 600 seats), nothing lent or borrowed, one short queue so that the rest
// is refused with 429, and a FlowSchema putting the bench user's requests that match `rule` in it.
import type { Gateway } from './client.js';
import type { BenchContext } from './step.js';

const group = 'flowcontrol.apiserver.orch.io';

export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}

/** Creates the level and the schema named `name`; answers the paths to DELETE afterwards. */
export async function createTightFlow(
  ctx: BenchContext,
  gw: Gateway,
  name: string,
  queueLengthLimit: number,
  rule: ResourceRule
): Promise<string[]> {
  const { mustCall } = ctx.client;
  const levels = `/apis/${group}/v1/prioritylevelconfigurations`;
  const schemas = `/apis/${group}/v1/flowschemas`;
  await mustCall(`${gw.url}${levels}`, 'POST', {
    apiVersion: `${group}/v1`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 1,
        lendablePercent: 0,
        borrowingLimitPercent: 0,
        limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit } },
      },
    },
  });
  await mustCall(`${gw.url}${schemas}`, 'POST', {
    apiVersion: `${group}/v1`,
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name },
      matchingPrecedence: 100,
      distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'User', user: { name: 'bench' } }], resourceRules: [rule] }],
    },
  });
  return [`${levels}/${name}`, `${schemas}/${name}`];
}

/** The schema's uid, which a gateway names in X-Kubernetes-PF-FlowSchema-UID. */
export async function flowSchemaUid(ctx: BenchContext, gw: Gateway, name: string): Promise<string> {
  const text = await ctx.client.mustCall(`${gw.url}/apis/${group}/v1/flowschemas/${name}`, 'GET');
  return (JSON.parse(text) as { metadata: { uid: string } }).metadata.uid;
}
