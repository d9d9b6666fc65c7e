// A label selector of a webhook or policy (namespaceSelector, objectSelector) parsed once.
// A selector that does not parse is kept as its error: upstream returns that error only for
// requests the rest of the criteria match (k8s.io/apiserver/pkg/admission/plugin/webhook/
// predicates/{namespace,object}/matcher.go, GetParsedNamespaceSelector).
import { newInternalError } from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';
import { LabelSelector, labelSelectorFromLabelSelectorObject } from '@orch/apimachinery/selectors';

export type CompiledSelector =
  | { readonly selector: LabelSelector; readonly error?: undefined }
  | { readonly selector?: undefined; readonly error: StatusError };

/**
 * Parses a selector. A missing selector (null or undefined) selects everything: v1 defaults
 * both selectors to `{}`, and objects written without the defaults are tolerated.
 */
export function compileSelector(sel: LabelSelectorObject | null | undefined): CompiledSelector {
  if (sel === null || sel === undefined) return { selector: LabelSelector.everything() };
  try {
    return { selector: labelSelectorFromLabelSelectorObject(sel) };
  } catch (err) {
    return { error: newInternalError(err) };
  }
}
