// The admissionregistration.orch.io strategies (k8s pkg/registry/admissionregistration/
// {mutatingwebhookconfiguration,validatingwebhookconfiguration,validatingadmissionpolicy,
// validatingadmissionpolicybinding}/strategy.go): cluster-scoped, DNS-subdomain names, the
// validation of ./validate-*.ts; policies keep their status apart (status subresource).
// The expression compile check comes from the options (rest-storage-provider.ts passes the CEL
// one).
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { sameJson } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../strategy.js';
import type { Strategy } from '../strategy.js';
import type { ExpressionCheck } from './validate-rules.js';
import {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyStatus,
  validateValidatingAdmissionPolicyUpdate,
} from './validate-validating-admission-policy.js';
import {
  createWebhookOptions,
  validateWebhookConfiguration,
  webhookUpdateOptions,
} from './validate-webhook-configuration.js';

export interface AdmissionRegistrationStrategyOptions {
  /** The compile check of matchConditions and policy expressions (@orch/apimachinery/cel). */
  checkExpression?: ExpressionCheck;
}

export function admissionRegistrationStrategy(
  def: ResourceDefinition,
  opts: AdmissionRegistrationStrategyOptions = {}
): Strategy {
  const expr = opts.checkExpression ? { checkExpression: opts.checkExpression } : {};
  const base = defaultStrategy({ hasStatus: def.subresources?.includes('status') ?? false });
  switch (def.kind) {
    case 'MutatingWebhookConfiguration':
    case 'ValidatingWebhookConfiguration': {
      const mutating = def.kind === 'MutatingWebhookConfiguration';
      return {
        ...base,
        validate: (obj) =>
          validateWebhookConfiguration(obj, mutating, { ...createWebhookOptions, ...expr }),
        validateUpdate: (obj, old) =>
          validateWebhookConfiguration(obj, mutating, webhookUpdateOptions(obj, old, expr)),
      };
    }
    case 'ValidatingAdmissionPolicy':
      return {
        ...base,
        validate: (obj) => validateValidatingAdmissionPolicy(obj, expr),
        validateUpdate: (obj, old) => [
          ...validateValidatingAdmissionPolicyUpdate(obj, old, expr),
          // A status write (the status subresource) is validated as upstream's status strategy.
          ...(sameJson(obj['status'], old['status'])
            ? []
            : validateValidatingAdmissionPolicyStatus(obj)),
        ],
      };
    case 'ValidatingAdmissionPolicyBinding':
      return {
        ...base,
        validate: (obj) => validateValidatingAdmissionPolicyBinding(obj),
        validateUpdate: (obj) => validateValidatingAdmissionPolicyBinding(obj),
      };
    default:
      return base;
  }
}
