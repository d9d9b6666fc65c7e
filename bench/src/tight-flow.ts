// A flow held to a few seats, for the steps that flood: a level of 1 share (about 3 of a
// gateway's 600 seats), nothing lent or borrowed, one short queue so that the rest is refused
// with 429, and a FlowSchema putting the bench user's requests that match `rule` in it.
import {
  flowSchemasPath,
  priorityLevelsPath,
  queuedPriorityLevel,
  userFlowSchema,
} from '@orch/testing';
import type { FlowResourceRule } from '@orch/testing';
import type { Gateway } from './client.js';
import type { BenchContext } from './step.js';

/** Creates the level and the schema named `name`; answers the paths to DELETE afterwards. */
export async function createTightFlow(
  ctx: BenchContext,
  gw: Gateway,
  name: string,
  queueLengthLimit: number,
  rule: FlowResourceRule
): Promise<string[]> {
  const { mustCall } = ctx.client;
  await mustCall(
    `${gw.url}${priorityLevelsPath}`,
    'POST',
    queuedPriorityLevel(name, 1, queueLengthLimit)
  );
  await mustCall(`${gw.url}${flowSchemasPath}`, 'POST', userFlowSchema(name, 'bench', rule, 100));
  return [`${priorityLevelsPath}/${name}`, `${flowSchemasPath}/${name}`];
}

/** The schema's uid, which a gateway names in X-Kubernetes-PF-FlowSchema-UID. */
export async function flowSchemaUid(ctx: BenchContext, gw: Gateway, name: string): Promise<string> {
  const text = await ctx.client.mustCall(`${gw.url}${flowSchemasPath}/${name}`, 'GET');
  return (JSON.parse(text) as { metadata: { uid: string } }).metadata.uid;
}
