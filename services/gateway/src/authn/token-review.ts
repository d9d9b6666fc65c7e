// TokenReview (authentication.orch.io v1 and v1beta1): runs spec.token through the gateway's token
// authenticators for spec.audiences and answers in the request's version.
import { newBadRequest } from '@orch/apimachinery/errors';
import { parseBody } from '../handlers/decode.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { VirtualHandler } from '../endpoints/installer.js';
import type { TokenAuthenticator } from './authenticator.js';

export const tokenReviewGroup = 'authentication.orch.io';
export const tokenReviewVersions = ['v1', 'v1beta1'] as const;

const contentTypeOf = (h: string | undefined): string => (h ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? 'application/json';

export function tokenReviewHandler(tokens: TokenAuthenticator, apiAudiences: string[]): VirtualHandler {
  return async (req, res, info, body) => {
    if (info.verb !== 'create') throw newBadRequest(`${req.method ?? ''} is not supported on tokenreviews; POST a TokenReview`);
    const apiVersion = `${tokenReviewGroup}/${info.apiVersion}`;
    const raw = parseBody(body, contentTypeOf(req.headers['content-type']));
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw newBadRequest('the body must be a TokenReview object');
    const tr = raw as { apiVersion?: unknown; kind?: unknown; metadata?: unknown; spec?: { token?: unknown; audiences?: unknown } };
    if (tr.apiVersion !== undefined && tr.apiVersion !== apiVersion) {
      throw newBadRequest(`the API version in the data (${String(tr.apiVersion)}) does not match the expected API version (${apiVersion})`);
    }
    if (tr.kind !== undefined && tr.kind !== 'TokenReview') throw newBadRequest(`the kind in the data (${String(tr.kind)}) does not match the expected kind (TokenReview)`);
    const token = tr.spec?.token;
    if (typeof token !== 'string' || token === '') throw newBadRequest('spec.token: Required value: a token is required');
    const wanted = tr.spec?.audiences;
    if (wanted !== undefined && (!Array.isArray(wanted) || wanted.some((a) => typeof a !== 'string'))) throw newBadRequest('spec.audiences: must be a list of strings');
    const audiences = (wanted as string[] | undefined) ?? [];
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
    const meta = typeof tr.metadata === 'object' && tr.metadata !== null ? tr.metadata : {};
    writeObjectNegotiated(req, res, 201, { apiVersion, kind: 'TokenReview', metadata: { ...meta, creationTimestamp: null }, spec: tr.spec, status });
  };
}
