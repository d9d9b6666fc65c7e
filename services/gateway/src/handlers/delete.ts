// DELETE of one object (k8s endpoints/handlers/delete.go DeleteResource): DeleteOptions from
// the body, or from the query when the body is empty, validated as upstream's
// ValidateDeleteOptions, then the Store's delete. 202 only when the object stays and the client
// asked for cascading with the deprecated orphanDependents=false, as upstream.
import type { HttpResponse } from '../http/handler.js';
import {
  fieldInvalid,
  fieldNotSupported,
  newBadRequest,
  newInvalid,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { GracefulDeleter, PropagationPolicy } from '../registry/rest.js';
import { parseBody, readBody } from './decode.js';
import { parseDryRun } from './list-options.js';
import { admitDelete, contextOf, negotiateBeforeWrite, validationFor } from './scope.js';
import type { RequestScope } from './scope.js';

export interface DeleteOptionsBody {
  dryRun: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: PropagationPolicy;
  /** Deprecated: true is Orphan, false is Background (k8s DeleteOptions.OrphanDependents). */
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
}

const policies: readonly string[] = ['Foreground', 'Background', 'Orphan'];

/** strconv.ParseBool, as upstream's query parameter conversion. */
function parseQueryBool(name: string, v: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw newBadRequest(`${name}: invalid boolean value ${JSON.stringify(v)}`);
}

function parseQueryInt(name: string, v: string): number {
  if (!/^[+-]?\d+$/.test(v))
    throw newBadRequest(`${name}: invalid integer value ${JSON.stringify(v)}`);
  return Number(v);
}

/** DeleteOptions from the body (kubectl sends one), else from the query; validated. */
export function parseDeleteOptions(query: URLSearchParams, raw: Buffer): DeleteOptionsBody {
  let dryRun = parseDryRun(query);
  const out: Omit<DeleteOptionsBody, 'dryRun'> = {};
  let policy: unknown;
  if (raw.length === 0 || raw.toString('utf8').trim() === '') {
    const p = query.get('propagationPolicy');
    if (p !== null) policy = p;
    const o = query.get('orphanDependents');
    if (o !== null) out.orphanDependents = parseQueryBool('orphanDependents', o);
    const g = query.get('gracePeriodSeconds');
    if (g !== null) out.gracePeriodSeconds = parseQueryInt('gracePeriodSeconds', g);
  } else {
    const body = parseBody(raw, 'application/json');
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw newBadRequest('DeleteOptions must be an object');
    const o = body as Record<string, unknown>;
    if (o['dryRun'] !== undefined && o['dryRun'] !== null) {
      const d = o['dryRun'];
      if (!Array.isArray(d) || d.some((v) => v !== 'All'))
        throw newBadRequest('dryRun: Unsupported value: supported values: "All"');
      dryRun = dryRun || d.length > 0;
    }
    const pre = o['preconditions'];
    if (pre !== undefined && pre !== null) {
      if (typeof pre !== 'object' || Array.isArray(pre))
        throw newBadRequest('preconditions must be an object');
      out.preconditions = pre as { uid?: string; resourceVersion?: string };
    }
    if (o['propagationPolicy'] !== undefined && o['propagationPolicy'] !== null)
      policy = o['propagationPolicy'];
    const orphan = o['orphanDependents'];
    if (orphan !== undefined && orphan !== null) {
      if (typeof orphan !== 'boolean') throw newBadRequest('orphanDependents must be a boolean');
      out.orphanDependents = orphan;
    }
    const grace = o['gracePeriodSeconds'];
    if (grace !== undefined && grace !== null) {
      if (typeof grace !== 'number' || !Number.isInteger(grace))
        throw newBadRequest('gracePeriodSeconds must be an integer');
      out.gracePeriodSeconds = grace;
    }
  }
  // k8s apis/meta/v1/validation ValidateDeleteOptions.
  const errs: FieldError[] = [];
  if (policy !== undefined && out.orphanDependents !== undefined) {
    errs.push(
      fieldInvalid(
        newPath('propagationPolicy'),
        policy,
        'orphanDependents and deletionPropagation cannot be both set'
      )
    );
  }
  if (policy !== undefined && (typeof policy !== 'string' || !policies.includes(policy))) {
    errs.push(fieldNotSupported(newPath('propagationPolicy'), policy, [...policies, 'nil']));
  }
  if (errs.length > 0) throw newInvalid({ group: 'meta.orch.io', kind: 'DeleteOptions' }, '', errs);
  if (policy !== undefined) out.propagationPolicy = policy as PropagationPolicy;
  return { dryRun, ...out };
}

export async function deleteResource(
  scope: RequestScope<GracefulDeleter>,
  res: HttpResponse
): Promise<void> {
  negotiateBeforeWrite(scope);
  const opts = parseDeleteOptions(scope.query, readBody(scope.req));
  await admitDelete(scope, opts.dryRun);
  const out = await scope.rest.delete(contextOf(scope), scope.info.name, {
    ...opts,
    deleteValidation: validationFor(scope, 'DELETE', opts.dryRun),
  });
  writeObjectNegotiated(scope.req, res, out.code === 202 ? 202 : 200, out.object);
}
