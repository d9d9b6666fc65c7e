// The admissionregistration.orch.io strategies (k8s pkg/registry/admissionregistration/
// {mutatingwebhookconfiguration,validatingwebhookconfiguration,validatingadmissionpolicy,
// validatingadmissionpolicybinding}/strategy.go): cluster-scoped, DNS-subdomain names, the
// validation of ./validate-*.ts; policies keep their status apart (status subresource).
// The expression compile check comes from the options (rest-storage-provider.ts passes the CEL
// one).
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

const checks = (opts: AdmissionRegistrationStrategyOptions) =>
  opts.checkExpression ? { checkExpression: opts.checkExpression } : {};

/** MutatingWebhookConfigurations (`mutating`) and ValidatingWebhookConfigurations. */
export function webhookConfigurationStrategy(
  mutating: boolean,
  opts: AdmissionRegistrationStrategyOptions = {}
): Strategy {
  const expr = checks(opts);
  return {
    ...defaultStrategy({ hasStatus: false }),
    validate: (obj) =>
      validateWebhookConfiguration(obj, mutating, { ...createWebhookOptions, ...expr }),
    validateUpdate: (obj, old) =>
      validateWebhookConfiguration(obj, mutating, webhookUpdateOptions(obj, old, expr)),
  };
}

/** ValidatingAdmissionPolicies, whose status is a subresource. */
export function validatingAdmissionPolicyStrategy(
  opts: AdmissionRegistrationStrategyOptions = {}
): Strategy {
  const expr = checks(opts);
  return {
    ...defaultStrategy({ hasStatus: true }),
    validate: (obj) => validateValidatingAdmissionPolicy(obj, expr),
    validateUpdate: (obj, old) => [
      ...validateValidatingAdmissionPolicyUpdate(obj, old, expr),
      // A status write (the status subresource) is validated as upstream's status strategy.
      ...(sameJson(obj['status'], old['status'])
        ? []
        : validateValidatingAdmissionPolicyStatus(obj)),
    ],
  };
}

/** ValidatingAdmissionPolicyBindings. */
export const validatingAdmissionPolicyBindingStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: (obj) => validateValidatingAdmissionPolicyBinding(obj),
  validateUpdate: (obj) => validateValidatingAdmissionPolicyBinding(obj),
};
