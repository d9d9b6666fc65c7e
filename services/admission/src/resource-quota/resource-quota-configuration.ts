// ResourceQuotaConfiguration (k8s plugin/pkg/admission/resourcequota/apis/resourcequota,
// apiserver.config.k8s.io/v1; here apiserver.config.orch.io/v1), the plugin's entry in
// --admission-control-config-file: resources whose consumption needs a covering quota
// (limitedResources: apiGroup, resource, matchContains, matchScopes).
import {
  fieldErrorMessage,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ScopeRequirement } from '@orch/apimachinery/quota';

export interface LimitedResource {
  apiGroup: string;
  resource: string;
  matchContains: string[];
  matchScopes: ScopeRequirement[];
}

export interface ResourceQuotaConfiguration {
  limitedResources: LimitedResource[];
}

export class ResourceQuotaConfigurationError extends Error {
  override readonly name = 'ResourceQuotaConfigurationError';
  constructor(errors: readonly FieldError[]) {
    super(`ResourceQuota configuration: ${errors.map((e) => fieldErrorMessage(e)).join(', ')}`);
  }
}

const apiVersions = ['apiserver.config.orch.io/v1', 'resourcequota.admission.orch.io/v1'];

/** The parsed configuration; none configured means no limited resources. */
export function parseResourceQuotaConfiguration(config: unknown): ResourceQuotaConfiguration {
  if (config === undefined || config === null) return { limitedResources: [] };
  const errs: FieldError[] = [];
  if (typeof config !== 'object' || Array.isArray(config)) {
    throw new ResourceQuotaConfigurationError([fieldInvalid('', config, 'must be an object')]);
  }
  const c = config as Record<string, unknown>;
  if (c['kind'] !== undefined && c['kind'] !== 'ResourceQuotaConfiguration') {
    errs.push(fieldNotSupported('kind', c['kind'], ['ResourceQuotaConfiguration']));
  }
  if (c['apiVersion'] !== undefined && !apiVersions.includes(String(c['apiVersion']))) {
    errs.push(fieldNotSupported('apiVersion', c['apiVersion'], apiVersions));
  }
  const limitedResources: LimitedResource[] = [];
  const list = c['limitedResources'] ?? [];
  if (!Array.isArray(list)) errs.push(fieldInvalid('limitedResources', list, 'must be a list'));
  else
    list.forEach((raw, i) => {
      const p = newPath('limitedResources').index(i);
      const r = (raw ?? {}) as Record<string, unknown>;
      if (typeof r['resource'] !== 'string' || r['resource'] === '') {
        errs.push(fieldRequired(p.child('resource'), ''));
        return;
      }
      const matchContains = Array.isArray(r['matchContains']) ? r['matchContains'].map(String) : [];
      const matchScopes = Array.isArray(r['matchScopes'])
        ? (r['matchScopes'] as ScopeRequirement[])
        : [];
      limitedResources.push({
        apiGroup: typeof r['apiGroup'] === 'string' ? r['apiGroup'] : '',
        resource: r['resource'],
        matchContains,
        matchScopes,
      });
    });
  if (errs.length > 0) throw new ResourceQuotaConfigurationError(errs);
  return { limitedResources };
}

/**
 * Whether a ResourceQuota configuration has limitedResources (an invalid one: it may), which
 * the service tells gateways (ListPlugins): they may then refuse writes in namespaces without
 * quotas.
 */
export function hasLimitedResources(config: unknown): boolean {
  try {
    return parseResourceQuotaConfiguration(config).limitedResources.length > 0;
  } catch {
    return true;
  }
}
