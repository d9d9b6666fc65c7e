// The conversion tests' kind, served at two versions of different shapes: v1 `spec.size: "3"`
// (a string, the storage version) and v2 `spec.replicas: 3` (an integer), with `Webhook`
// conversion, and the conversion a correct webhook makes between them.
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';

type Obj = Record<string, unknown>;

export interface TwoVersionKind {
  group: string;
  plural: string;
  kind: string;
  /** The CRD's conversion.webhook.clientConfig. */
  clientConfig: Obj;
  /** The CRD's conversionReviewVersions (default ['v1']). */
  reviewVersions?: string[];
}

/** The CRD of a kind with v1 `spec.size` (string, storage) and v2 `spec.replicas` (integer). */
export function twoVersionCrd(k: TwoVersionKind): CustomResourceDefinition {
  const schema = (spec: Obj) => ({
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: spec } },
    },
  });
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${k.plural}.${k.group}` },
    spec: {
      group: k.group,
      names: { plural: k.plural, singular: k.kind.toLowerCase(), kind: k.kind },
      scope: 'Namespaced',
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema({ size: { type: 'string' } }) },
        {
          name: 'v2',
          served: true,
          storage: false,
          schema: schema({ replicas: { type: 'integer' } }),
        },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: k.reviewVersions ?? ['v1'],
          clientConfig: k.clientConfig,
        },
      },
    },
  } as CustomResourceDefinition;
}

/**
 * One object at `to` (`<group>/v1` or `<group>/v2`), as the test webhook converts it; a size
 * that is not a number has no v2 form: the reason is returned instead.
 */
export function convertSizeReplicas(o: Obj, to: string): Obj | string {
  const out: Obj = { ...structuredClone(o), apiVersion: to };
  const spec = (o['spec'] ?? {}) as { size?: unknown; replicas?: unknown };
  if (to.endsWith('/v2')) {
    const replicas = Number(spec.size);
    if (!Number.isInteger(replicas))
      return `spec.size ${JSON.stringify(spec.size)} is not a number`;
    out['spec'] = { replicas };
  } else {
    out['spec'] = { size: String(spec.replicas) };
  }
  return out;
}
