// The webhook matchConditions compiler the service gives plugins (PluginDeps.matchConditions):
// variables object, oldObject and request (AdmissionReview.request); `authorizer` is not
// available. Under matchPolicy Equivalent `request.kind` is the kind the webhook matched and
// `request.resource` the request's own, as upstream's matcher builds it from the versioned
// attributes (cel.CreateAdmissionRequest(versionedAttr.Attributes, versionedAttr.GetResource(),
// versionedAttr.VersionedKind)). One evaluation of a webhook's conditions shares RUNTIME_CEL_COST_BUDGET, each
// expression PER_CALL_LIMIT. Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/
// matchconditions.
import {
  CostBudget,
  RUNTIME_BUDGET_MESSAGE,
  RUNTIME_CEL_COST_BUDGET,
  WEBHOOK_MATCH_CONDITION_VARIABLES,
} from '@orch/apimachinery/cel';

import type { MatchConditionsCompiler } from '../interfaces.js';

import { requestActivation } from './activation.js';
import { ConditionSet } from './condition-set.js';

export const compileMatchConditions: MatchConditionsCompiler = (conditions, path) => {
  const { set, errors } = ConditionSet.compile(conditions, WEBHOOK_MATCH_CONDITION_VARIABLES, path);
  return {
    errors,
    conditions: {
      evaluate(req, matched) {
        if (set.size === 0) return Promise.resolve({ matches: true });
        const budget = new CostBudget(RUNTIME_CEL_COST_BUDGET, RUNTIME_BUDGET_MESSAGE);
        const r = set.evaluate(requestActivation(req, matched), budget);
        return Promise.resolve(
          r.error !== undefined ? { matches: false, error: r.error } : { matches: r.matches }
        );
      },
    },
  };
};
