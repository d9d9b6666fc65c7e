// TokenReview (authentication.orch.io v1; v1beta1 was removed in 1.22): runs spec.token through the gateway's token
// authenticators for spec.audiences and answers in the request's version. The body is decoded
// like any create (JSON, YAML or the binary envelope; fieldValidation against the schema).
import { newBadRequest } from '@orch/apimachinery/errors';
import { builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { CreateOptions, Creater, RestContext } from '../rest.js';
import type { TokenAuthenticator } from '../../authn/authenticator.js';

export const tokenReviewGroup = 'authentication.orch.io';
export const tokenReviewVersions = ['v1'] as const;

const definitionOf = (version: string): ResourceDefinition => {
  const d = builtinResources.find(
    (x) => x.group === tokenReviewGroup && x.version === version && x.resource === 'tokenreviews'
  );
  if (!d) throw new Error(`tokenreviews.${tokenReviewGroup} ${version} is not registered`);
  return d;
};

interface TokenReviewSpec {
  token?: string;
  audiences?: string[];
}

/** The TokenReview of one version: create only, never stored (k8s tokenreview.REST). */
export class TokenReviewRest implements Creater {
  readonly objectKind: ResourceDefinition;
  readonly #tokens: TokenAuthenticator;
  readonly #apiAudiences: string[];

  constructor(version: string, tokens: TokenAuthenticator, apiAudiences: string[]) {
    this.objectKind = definitionOf(version);
    this.#tokens = tokens;
    this.#apiAudiences = apiAudiences;
  }

  async create(_ctx: RestContext, tr: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    const spec = (tr['spec'] ?? {}) as TokenReviewSpec;
    const token = spec.token;
    if (token === undefined || token === '')
      throw newBadRequest('spec.token: Required value: a token is required');
    await opts.createValidation?.(tr, undefined);
    const audiences = spec.audiences ?? [];
    let status: Record<string, unknown>;
    try {
      const wanted = audiences.length > 0 ? audiences : this.#apiAudiences;
      const r = await this.#tokens.authenticateToken(token, wanted);
      if (!r) status = { authenticated: false, user: {}, error: 'Unauthorized' };
      else if (audiences.length > 0 && r.audiences.length === 0)
        status = {
          authenticated: false,
          user: {},
          error: 'token audiences do not intersect the requested audiences',
        };
      else {
        status = {
          authenticated: true,
          user: {
            username: r.user.name,
            ...(r.user.uid ? { uid: r.user.uid } : {}),
            groups: r.user.groups,
            ...(Object.keys(r.user.extra).length > 0 ? { extra: r.user.extra } : {}),
          },
          ...(audiences.length > 0 ? { audiences: r.audiences } : {}),
        };
      }
    } catch (err) {
      status = { authenticated: false, user: {}, error: (err as Error).message || 'Unauthorized' };
    }
    // A review is never stored: its creationTimestamp is answered null, as k8s does.
    // JSON null, which ObjectMeta does not type (its intersection with it is still ObjectMeta)
    const metadata = Object.assign({}, tr.metadata, { creationTimestamp: null });
    return { ...tr, metadata, status };
  }
}
