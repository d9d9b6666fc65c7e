// SelfSubjectReview (authentication.orch.io v1, v1beta1): answers who the caller is, as the
// gateway authenticated it (after impersonation: the impersonated user), never stored
// (k8s pkg/registry/authentication/selfsubjectreview/rest.go).
import { newBadRequest } from '@orch/apimachinery/errors';
import { builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { CreateOptions, Creater, RestContext } from '../rest.js';

export const selfSubjectReviewVersions = ['v1', 'v1beta1'] as const;

const definitionOf = (version: string): ResourceDefinition => {
  const d = builtinResources.find(
    (x) =>
      x.group === 'authentication.orch.io' &&
      x.version === version &&
      x.resource === 'selfsubjectreviews'
  );
  if (!d) throw new Error(`selfsubjectreviews.authentication.orch.io ${version} is not registered`);
  return d;
};

export class SelfSubjectReviewRest implements Creater {
  readonly objectKind: ResourceDefinition;

  constructor(version: string) {
    this.objectKind = definitionOf(version);
  }

  async create(ctx: RestContext, review: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    const user = ctx.user;
    // The chain authenticates every request (anonymous included) before it gets here.
    if (!user) throw newBadRequest('no user present on request');
    await opts.createValidation?.(review, undefined);
    const userInfo = {
      username: user.name,
      ...(user.uid ? { uid: user.uid } : {}),
      groups: user.groups,
      ...(Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
    };
    // JSON null, which ObjectMeta does not type (its intersection with it is still ObjectMeta)
    const metadata = Object.assign({}, review.metadata, { creationTimestamp: null });
    return { ...review, metadata, status: { userInfo } };
  }
}
