// namespaceSelector: for namespaced resources the labels of the request's namespace (from the
// namespace lister), for Namespace objects their own labels, for other cluster-scoped
// resources always a match. Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/
// predicates/namespace/matcher.go (MatchNamespaceSelector, GetNamespaceLabels).
import { newNotFound } from '@orch/apimachinery/errors';
import type { LabelSelector } from '@orch/apimachinery/selectors';

import type { AdmissionRequest, ObjectLister } from '../interfaces.js';

export type NamespaceAttributes = Pick<
  AdmissionRequest,
  'operation' | 'resource' | 'subResource' | 'namespace' | 'name' | 'object' | 'oldObject'
>;

export class NamespaceMatcher {
  readonly #namespaces: ObjectLister;

  constructor(namespaces: ObjectLister) {
    this.#namespaces = namespaces;
  }

  /**
   * True when the request's namespace matches. Throws a 404 StatusError when the namespace of
   * a namespaced request is not known (upstream keeps the NotFound for compatibility).
   */
  matches(selector: LabelSelector, req: NamespaceAttributes): boolean {
    const isNamespace = req.resource.group === '' && req.resource.resource === 'namespaces';
    if (req.namespace === '' && !isNamespace) return true;
    if (selector.empty()) return true;
    return selector.matches(this.labels(req, isNamespace));
  }

  /** The labels the selector is checked against. */
  labels(req: NamespaceAttributes, isNamespace: boolean): Record<string, string> {
    // A create or update of a Namespace: the lister does not have the new labels yet.
    if (
      isNamespace &&
      req.subResource === '' &&
      (req.operation === 'CREATE' || req.operation === 'UPDATE')
    ) {
      return req.object?.metadata?.labels ?? {};
    }
    const name = req.namespace !== '' ? req.namespace : req.name;
    const ns =
      this.#namespaces.get('', name) ?? (isNamespace ? (req.oldObject ?? req.object) : undefined);
    if (ns === undefined) throw newNotFound({ group: '', resource: 'namespaces' }, name);
    return ns.metadata?.labels ?? {};
  }
}
