// The Table representation of a get or list answer: the kind's columns from the schema model
// (a custom resource's from its CRD version's additionalPrinterColumns),
// includeObject=None|Metadata|Object (default Metadata), in the table group the client named.
import type { HttpRequest } from '../http/handler.js';
import { requestUrl } from '../http/request-url.js';
import { customResourceTable } from '@orch/apimachinery/apiextensions';
import { newBadRequest } from '@orch/apimachinery/errors';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { builtinSchemaModel, toTable } from '@orch/apimachinery/schema-model';
import type { IncludeObject, Table, TableOptions } from '@orch/apimachinery/schema-model';

type Json = Record<string, unknown>;

export function parseIncludeObject(req: HttpRequest): IncludeObject {
  const v = requestUrl(req).searchParams.get('includeObject');
  if (v === null || v === '') return 'Metadata';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  throw newBadRequest(
    `includeObject parameter unsupported: ${v}; must be one of None, Metadata, Object`
  );
}

/** A Table of an object, or of a list's items with the list's metadata. */
export function tableOf(
  req: HttpRequest,
  def: ResourceDefinition,
  obj: unknown,
  group: string
): Table {
  const includeObject = parseIncludeObject(req);
  const cr = def.customResource;
  const convert: (objects: Json[], opts: TableOptions) => Table = cr
    ? (objects, opts) => customResourceTable(cr.version.additionalPrinterColumns, objects, opts)
    : (objects, opts) =>
        toTable(
          builtinSchemaModel().kind({ group: def.group, version: def.version, kind: def.kind })
            ?.message,
          objects,
          opts
        );
  const o = obj as Json;
  const apiVersion = `${group}/v1`;
  if (o['kind'] === def.listKind && Array.isArray(o['items'])) {
    const meta = (o['metadata'] ?? {}) as Table['metadata'];
    return convert(o['items'] as Json[], { apiVersion, includeObject, listMeta: meta });
  }
  const rv = ((o['metadata'] ?? {}) as Json)['resourceVersion'];
  return convert([o], {
    apiVersion,
    includeObject,
    listMeta: typeof rv === 'string' ? { resourceVersion: rv } : {},
  });
}
