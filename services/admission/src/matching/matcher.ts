// Whether a webhook or policy applies to a request: namespaceSelector, objectSelector, rules
// and exclusions, with selector errors (and an unknown namespace) surfaced only when the rules
// match, as upstream. Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/generic/
// webhook.go (ShouldCallHook) and plugin/policy/matching/matching.go (Matcher.Matches).
//
// matchPolicy: this server serves one version per kind, so no request reaches a resource
// through another group or version and `Equivalent` matches exactly as `Exact` does; the
// request's kind and resource are the matched ones.
import type { StatusError } from '@orch/apimachinery/errors';

import type { AdmissionRequest, ObjectLister } from '../interfaces.js';

import type { CompiledSelector } from './compiled-selector.js';
import { NamespaceMatcher } from './namespace-matcher.js';
import { matchObjectSelector } from './object-matcher.js';
import type { NamedRuleWithOperations } from './rule-matcher.js';
import { anyRuleMatches, namedRulesMatch } from './rule-matcher.js';
import type { RuleAttributes } from './rule-matcher.js';

/** What a webhook or a policy's matchConstraints select. */
export interface MatchCriteria {
  readonly namespaceSelector: CompiledSelector;
  readonly objectSelector: CompiledSelector;
  /** A webhook's `rules` or a policy's `resourceRules`. */
  readonly rules: readonly NamedRuleWithOperations[];
  /** A policy's `excludeResourceRules`; a match excludes the request. */
  readonly excludeRules?: readonly NamedRuleWithOperations[];
  /**
   * True for policies: an empty `rules` list matches every request (upstream matching.go).
   * False for webhooks: no rules, no match.
   */
  readonly emptyRulesMatchAll?: boolean;
  /** `Exact` or `Equivalent`; both match exactly here (see the file head). */
  readonly matchPolicy?: string;
}

/**
 * Could the criteria select a request for this resource, subresource, operation and scope,
 * whatever its object, name and namespace? Rules only (without resourceNames, which a generated
 * name may only meet later; exclusions and selectors not looked at): the conservative
 * pre-check that lets a phase be left out when nothing can act in it.
 */
export function mayMatch(criteria: MatchCriteria, attrs: RuleAttributes): boolean {
  if (criteria.rules.length === 0) return criteria.emptyRulesMatchAll === true;
  return anyRuleMatches(criteria.rules, attrs);
}

export class Matcher {
  readonly #namespaces: NamespaceMatcher;

  constructor(namespaces: ObjectLister) {
    this.#namespaces = new NamespaceMatcher(namespaces);
  }

  /**
   * True when the criteria select the request. Throws the StatusError of a selector that
   * did not parse (500) or of an unknown namespace (404), but only when the request would
   * otherwise match.
   */
  matches(criteria: MatchCriteria, req: AdmissionRequest): boolean {
    let deferred: StatusError | undefined;

    const ns = criteria.namespaceSelector;
    if (ns.error !== undefined) {
      deferred = ns.error;
    } else {
      try {
        if (!this.#namespaces.matches(ns.selector, req)) return false;
      } catch (err) {
        deferred = err as StatusError;
      }
    }

    const obj = criteria.objectSelector;
    if (obj.error !== undefined) {
      deferred ??= obj.error;
    } else if (!matchObjectSelector(obj.selector, req)) {
      return false;
    }

    if (namedRulesMatch(criteria.excludeRules, req)) return false;
    const included =
      criteria.rules.length === 0
        ? criteria.emptyRulesMatchAll === true
        : namedRulesMatch(criteria.rules, req);
    if (!included) return false;
    if (deferred !== undefined) throw deferred;
    return true;
  }
}
