// Whether a webhook or policy applies to a request: namespaceSelector, objectSelector, rules
// and exclusions, with selector errors (and an unknown namespace) surfaced only when the rules
// match, as upstream. Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/generic/
// webhook.go (ShouldCallHook) and plugin/policy/matching/matching.go (Matcher.Matches).
//
// matchPolicy `Equivalent` (the v1 default): when no rule matches the request's own resource,
// a rule matching an equivalent resource (another served version of its collection, see
// equivalent-resources.ts) matches, and the request is matched as that resource and its kind,
// rules in order, as upstream's ShouldCallHook and matchesResourceRules. `Exact` (or none
// given, as upstream's nil) matches the request's own resource only.
import type { StatusError } from '@orch/apimachinery/errors';

import type { AdmissionRequest, ObjectLister } from '../interfaces.js';

import type { CompiledSelector } from './compiled-selector.js';
import { builtinEquivalentResources } from './equivalent-resources.js';
import type { EquivalentResourceMapper, MatchedResource } from './equivalent-resources.js';
import { NamespaceMatcher } from './namespace-matcher.js';
import { matchObjectSelector } from './object-matcher.js';
import type { NamedRuleWithOperations } from './rule-matcher.js';
import { anyRuleMatches, namedRulesMatch, ruleMatches } from './rule-matcher.js';
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
  /** `Exact` or `Equivalent` (see the file head); missing: `Exact`. */
  readonly matchPolicy?: string;
}

/** The subset of a request matching looks at beyond the rules: its kind. */
type MatchAttributes = RuleAttributes & Pick<AdmissionRequest, 'kind'>;

/**
 * The resource and kind `rules` match the request as: its own when a rule matches it, else
 * under `Equivalent` the first equivalent resource a rule matches, rules in order; undefined when
 * none. Upstream's second pass does not look at resourceNames; this one neither.
 */
function matchedResource(
  rules: readonly NamedRuleWithOperations[],
  matchPolicy: string | undefined,
  attrs: MatchAttributes,
  mapper: EquivalentResourceMapper
): MatchedResource | undefined {
  if (namedRulesMatch(rules, attrs)) return { resource: attrs.resource, kind: attrs.kind };
  if (matchPolicy !== 'Equivalent' || rules.length === 0) return undefined;
  const equivalents = mapper.equivalentResourcesFor(attrs.resource, attrs.subResource);
  for (const rule of rules) {
    for (const resource of equivalents) {
      if (ruleMatches(rule, { ...attrs, resource })) {
        return { resource, kind: mapper.kindFor(resource, attrs.kind) };
      }
    }
  }
  return undefined;
}

/**
 * Could the criteria select a request for this resource, subresource, operation and scope,
 * whatever its object, name and namespace? Rules only (without resourceNames, which a generated
 * name may only meet later; exclusions and selectors not looked at): the conservative
 * pre-check that lets a phase be left out when nothing can act in it.
 */
export function mayMatch(
  criteria: MatchCriteria,
  attrs: MatchAttributes,
  mapper: EquivalentResourceMapper = builtinEquivalentResources
): boolean {
  if (criteria.rules.length === 0) return criteria.emptyRulesMatchAll === true;
  if (anyRuleMatches(criteria.rules, attrs)) return true;
  if (criteria.matchPolicy !== 'Equivalent') return false;
  return mapper
    .equivalentResourcesFor(attrs.resource, attrs.subResource)
    .some((resource) => anyRuleMatches(criteria.rules, { ...attrs, resource }));
}

export class Matcher {
  readonly #namespaces: NamespaceMatcher;
  readonly #mapper: EquivalentResourceMapper;

  constructor(
    namespaces: ObjectLister,
    mapper: EquivalentResourceMapper = builtinEquivalentResources
  ) {
    this.#namespaces = new NamespaceMatcher(namespaces);
    this.#mapper = mapper;
  }

  /** What matchPolicy Equivalent reads; `prepare` it before matching. */
  get mapper(): EquivalentResourceMapper {
    return this.#mapper;
  }

  /** Makes the mapper ready for `req` (the CRDs, for a custom resource). */
  async prepare(req: Pick<AdmissionRequest, 'resource'>): Promise<void> {
    await this.#mapper.prepare?.(req.resource);
  }

  /** True when the criteria select the request (see `match`). */
  matches(criteria: MatchCriteria, req: AdmissionRequest): boolean {
    return this.match(criteria, req) !== undefined;
  }

  /**
   * The resource and kind the criteria select the request as (its own, or an equivalent one
   * under matchPolicy Equivalent); undefined when they do not select it. Throws the StatusError
   * of a selector that did not parse (500) or of an unknown namespace (404), but only when the
   * request would otherwise match.
   */
  match(criteria: MatchCriteria, req: AdmissionRequest): MatchedResource | undefined {
    let deferred: StatusError | undefined;

    const ns = criteria.namespaceSelector;
    if (ns.error !== undefined) {
      deferred = ns.error;
    } else {
      try {
        if (!this.#namespaces.matches(ns.selector, req)) return undefined;
      } catch (err) {
        deferred = err as StatusError;
      }
    }

    const obj = criteria.objectSelector;
    if (obj.error !== undefined) {
      deferred ??= obj.error;
    } else if (!matchObjectSelector(obj.selector, req)) {
      return undefined;
    }

    const policy = criteria.matchPolicy;
    if (matchedResource(criteria.excludeRules ?? [], policy, req, this.#mapper)) return undefined;
    const matched =
      criteria.rules.length === 0
        ? criteria.emptyRulesMatchAll === true
          ? { resource: req.resource, kind: req.kind }
          : undefined
        : matchedResource(criteria.rules, policy, req, this.#mapper);
    if (matched === undefined) return undefined;
    if (deferred !== undefined) throw deferred;
    return matched;
  }
}
