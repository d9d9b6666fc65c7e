// TokenReview (authentication.orch.io v1 and v1beta1): runs spec.token through the gateway's token
// authenticators for spec.audiences and answers in the request's version. The body is decoded
// like any create (JSON, YAML or the binary envelope; fieldValidation against the schema).
import { newBadRequest } from '@orch/apimachinery/errors';
import { builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { decodeRequestObject } from '../handlers/decode.js';
import { negotiateInput, writableMediaTypes } from '../negotiation/negotiate.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import { requestUrl } from '../request/request-info.js';
import type { VirtualHandler } from '../endpoints/installer.js';
import type { TokenAuthenticator } from './authenticator.js';

export const tokenReviewGroup = 'authentication.orch.io';
export const tokenReviewVersions = ['v1', 'v1beta1'] as const;

const definitionOf = (version: string): ResourceDefinition => {
  const d = builtinResources.find((x) => x.group === tokenReviewGroup && x.version === version && x.resource === 'tokenreviews');
  if (!d) throw newBadRequest(`tokenreviews.${tokenReviewGroup} is not served in version ${version}`);
  return d;
};

interface TokenReviewSpec {
  token?: string;
  audiences?: string[];
}

export function tokenReviewHandler(tokens: TokenAuthenticator, apiAudiences: string[]): VirtualHandler {
  return async (req, res, info) => {
    if (info.verb !== 'create') throw newBadRequest(`${req.method ?? ''} is not supported on tokenreviews; POST a TokenReview`);
    const tr = decodeRequestObject(req, requestUrl(req).searchParams, definitionOf(info.apiVersion), negotiateInput(req, writableMediaTypes), {});
    const spec = (tr['spec'] ?? {}) as TokenReviewSpec;
    const token = spec.token;
    if (token === undefined || token === '') throw newBadRequest('spec.token: Required value: a token is required');
    const audiences = spec.audiences ?? [];
    let status: Record<string, unknown>;
    try {
      const r = await tokens.authenticateToken(token, audiences.length > 0 ? audiences : apiAudiences);
      if (!r) status = { authenticated: false, user: {}, error: 'Unauthorized' };
      else if (audiences.length > 0 && r.audiences.length === 0) status = { authenticated: false, user: {}, error: 'token audiences do not intersect the requested audiences' };
      else {
        status = {
          authenticated: true,
          user: { username: r.user.name, ...(r.user.uid ? { uid: r.user.uid } : {}), groups: r.user.groups, ...(Object.keys(r.user.extra).length > 0 ? { extra: r.user.extra } : {}) },
          ...(audiences.length > 0 ? { audiences: r.audiences } : {}),
        };
      }
    } catch (err) {
      status = { authenticated: false, user: {}, error: (err as Error).message || 'Unauthorized' };
    }
    writeObjectNegotiated(req, res, 201, { ...tr, metadata: { ...tr.metadata, creationTimestamp: null }, status });
  };
}
