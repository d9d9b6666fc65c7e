// The shape of a built-in object as upstream writes it from its Go type: the empty structs and
// zero fields Go's encoder always writes (`status: {loadBalancer: {}}` of a Service, `status:
// {replicas: 0}` of a ReplicationController, `resources: {}` of a container). The Store gives an
// object this shape on create (after validation, as the stored and answered form) and on update
// (both the object read and the one written, so a client that leaves an empty struct out
// changes nothing). Custom resources keep their own shape.
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { parseApiVersion } from '@orch/apimachinery/schema';
import { applyDefaults, builtinSchemaModel } from '@orch/apimachinery/schema-model';
import type { ApiObject } from '@orch/apimachinery/meta';

/**
 * Gives `obj` (of `def`, at the version its apiVersion names) the shape Go writes, in place, and
 * defaults what that adds (as decoding it from storage does upstream: a claim template's
 * `status: {}` becomes `{phase: Pending}`).
 */
export function fillGoShape(def: ResourceDefinition, obj: ApiObject): void {
  if (def.customResource) return;
  const gv = typeof obj['apiVersion'] === 'string' ? parseApiVersion(obj['apiVersion']) : undefined;
  const kind = builtinSchemaModel().kind({
    group: gv?.group ?? def.group,
    version: gv?.version ?? def.version,
    kind: typeof obj['kind'] === 'string' ? obj['kind'] : def.kind,
  });
  if (kind) applyDefaults(kind.message, obj, undefined, { goShape: true });
}
