// Requests to a deprecated version (k8s.io/apiserver/pkg/endpoints/deprecation WarningMessage, the
// installer's deprecated handler, endpoints/metrics RecordRequestedDeprecatedAPI): a
// `Warning: 299` naming the replacement, the audit annotations `orch.io/deprecated: "true"` and
// `orch.io/removed-release: "1.Y"`, and the gauge apiserver_requested_deprecated_apis set to 1.
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { upstreamGroup } from '@orch/apimachinery/schema';
import { mapGroupsInText } from '../groupalias/translate-groups.js';
import type { HttpRequest } from '../http/handler.js';
import { addAuditAnnotation, addWarning, upstreamGroupNamesFrom } from '../request/context.js';

export const deprecatedAnnotation = 'orch.io/deprecated';
export const removedReleaseAnnotation = 'orch.io/removed-release';

/** `<group>/<version> <Kind> is deprecated in v1.X+, unavailable in v1.Y+; use <replacement>`. */
export function deprecationWarning(def: ResourceDefinition): string | undefined {
  const d = def.deprecation;
  if (!d) return undefined;
  const gv = def.group === '' ? def.version : `${def.group}/${def.version}`;
  let msg = `${gv} ${def.kind} is deprecated in v${d.deprecatedIn}+`;
  if (d.removedIn) msg += `, unavailable in v${d.removedIn}+`;
  if (d.replacement) msg += `; use ${d.replacement}`;
  return msg;
}

export type DeprecatedApiGauge = {
  set(
    labels: {
      group: string;
      version: string;
      resource: string;
      subresource: string;
      removed_release: string;
    },
    value: number
  ): void;
};

/** Marks a request to a deprecated definition: warning, audit annotations, gauge. */
export function recordDeprecatedRequest(
  req: HttpRequest,
  def: ResourceDefinition,
  subresource: string,
  gauge: DeprecatedApiGauge | undefined
): void {
  const warning = deprecationWarning(def);
  if (!warning || !def.deprecation) return;
  // Under an upstream group alias, in the names the client asked in.
  addWarning(req, upstreamGroupNamesFrom(req) ? mapGroupsInText(warning, upstreamGroup) : warning);
  addAuditAnnotation(req, deprecatedAnnotation, 'true');
  if (def.deprecation.removedIn) {
    addAuditAnnotation(req, removedReleaseAnnotation, def.deprecation.removedIn);
  }
  gauge?.set(
    {
      group: def.group,
      version: def.version,
      resource: def.resource,
      subresource,
      removed_release: def.deprecation.removedIn ?? '',
    },
    1
  );
}
