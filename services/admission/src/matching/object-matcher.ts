// objectSelector: matches when the object or the old object matches. Upstream:
// k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/object/matcher.go. As the spec
// says, a missing object and an object without labels never match a non-empty selector (so
// `DoesNotExist` selectors do not catch label-less objects; users can bypass an objectSelector
// by changing labels, which is why it suits opt-in webhooks only).
import type { ApiObject } from '@orch/apimachinery/meta';
import type { LabelSelector } from '@orch/apimachinery/selectors';

import type { AdmissionRequest } from '../interfaces.js';

function objectMatches(obj: ApiObject | undefined, selector: LabelSelector): boolean {
  const labels = obj?.metadata?.labels;
  if (labels === undefined || labels === null || Object.keys(labels).length === 0) return false;
  return selector.matches(labels);
}

/** True when the selector is empty or the object or old object matches it. */
export function matchObjectSelector(
  selector: LabelSelector,
  req: Pick<AdmissionRequest, 'object' | 'oldObject'>
): boolean {
  if (selector.empty()) return true;
  return objectMatches(req.object, selector) || objectMatches(req.oldObject, selector);
}
