// Impersonation (k8s WithImpersonation): `Impersonate-User`, `-Group` (repeatable), `-Uid` and
// `Impersonate-Extra-<key>`. The caller is authenticated first; its right to the verb
// `impersonate` on each requested value is asked of the authorizer; then the request runs as the
// impersonated identity. Group, Extra or Uid without User is 400.
import { newBadRequest, newForbidden, newInternalError } from '@orch/apimachinery/errors';
import type { Handler, HttpRequest } from '../http/handler.js';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { userFrom, withUser } from '../request/context.js';
import type { Attributes, UserInfo } from '@orch/apimachinery/auth';
import type { Authorizer } from '../authz/authorizer.js';
import {
  allAuthenticated,
  allServiceAccountsGroup,
  allUnauthenticated,
  anonymousUser,
} from '@orch/apimachinery/auth';
import { splitServiceAccountName } from '../authn/service-account.js';

const extraPrefix = 'impersonate-extra-';
const impersonators = new WeakMap<HttpRequest, UserInfo>();

/** The authenticated caller of an impersonated request (undefined when nobody was impersonated). */
export const impersonatorFrom = (req: HttpRequest): UserInfo | undefined => impersonators.get(req);

interface Requested {
  user?: string;
  uid?: string;
  groups: string[];
  extra: Record<string, string[]>;
}

/** The impersonation headers, each repeated value separately (rawHeaders, not the joined form). */
export function impersonationHeaders(req: HttpRequest): Requested | undefined {
  const r: Requested = { groups: [], extra: {} };
  let any = false;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    const value = raw[i + 1] ?? '';
    if (name === 'impersonate-user') {
      r.user = value;
      any = true;
    } else if (name === 'impersonate-uid') {
      r.uid = value;
      any = true;
    } else if (name === 'impersonate-group') {
      r.groups.push(value);
      any = true;
    } else if (name.startsWith(extraPrefix)) {
      let key = name.slice(extraPrefix.length);
      try {
        key = decodeURIComponent(key);
      } catch {
        // keep it as sent
      }
      (r.extra[key] ??= []).push(value);
      any = true;
    }
  }
  return any ? r : undefined;
}

function stripHeaders(req: HttpRequest): void {
  for (const h of Object.keys(req.headers)) {
    if (
      h === 'impersonate-user' ||
      h === 'impersonate-uid' ||
      h === 'impersonate-group' ||
      h.startsWith(extraPrefix)
    )
      delete req.headers[h];
  }
}

export const withImpersonation =
  (next: Handler, authorizer: Authorizer): Handler =>
  async (req, res) => {
    const wanted = impersonationHeaders(req);
    if (!wanted) return next(req, res);
    try {
      const caller = userFrom(req);
      if (!caller) throw newInternalError(new Error('no user found for request'));
      if (wanted.user === undefined || wanted.user === '') {
        const what = [
          wanted.groups.length > 0 ? 'groups' : '',
          Object.keys(wanted.extra).length > 0 ? 'extra' : '',
          wanted.uid !== undefined ? 'uid' : '',
        ].filter(Boolean);
        throw newBadRequest(`requested [${what.join(', ')}] without impersonating a user`);
      }
      const checks: Omit<
        Attributes,
        'user' | 'verb' | 'isResourceRequest' | 'path' | 'apiVersion'
      >[] = [];
      const sa = splitServiceAccountName(wanted.user);
      if (sa)
        checks.push({
          apiGroup: '',
          resource: 'serviceaccounts',
          subresource: '',
          namespace: sa.namespace,
          name: sa.name,
        });
      else
        checks.push({
          apiGroup: '',
          resource: 'users',
          subresource: '',
          namespace: '',
          name: wanted.user,
        });
      for (const g of wanted.groups)
        checks.push({ apiGroup: '', resource: 'groups', subresource: '', namespace: '', name: g });
      for (const [k, vs] of Object.entries(wanted.extra)) {
        for (const v of vs)
          checks.push({
            apiGroup: 'authentication.orch.io',
            resource: 'userextras',
            subresource: k,
            namespace: '',
            name: v,
          });
      }
      if (wanted.uid !== undefined)
        checks.push({
          apiGroup: 'authentication.orch.io',
          resource: 'uids',
          subresource: '',
          namespace: '',
          name: wanted.uid,
        });
      for (const c of checks) {
        const d = await authorizer.authorize({
          ...c,
          user: caller,
          verb: 'impersonate',
          isResourceRequest: true,
          path: '',
          apiVersion: '',
        });
        if (d.decision !== 'allow') {
          const resource = c.subresource ? `${c.resource}/${c.subresource}` : c.resource;
          const scope = c.namespace ? `in the namespace "${c.namespace}"` : 'at the cluster scope';
          throw newForbidden(
            { group: c.apiGroup, resource },
            c.name,
            `User "${caller.name}" cannot impersonate resource "${resource}" in API group "${c.apiGroup}" ${scope}${d.reason ? `: ${d.reason}` : ''}`
          );
        }
      }
      const groups = [...wanted.groups];
      if (sa) groups.push(allServiceAccountsGroup, `${allServiceAccountsGroup}:${sa.namespace}`);
      const special = wanted.user === anonymousUser ? allUnauthenticated : allAuthenticated;
      if (!groups.includes(special)) groups.push(special);
      impersonators.set(req, caller);
      withUser(req, { name: wanted.user, uid: wanted.uid ?? '', groups, extra: wanted.extra });
      stripHeaders(req);
    } catch (err) {
      return writeErrorNegotiated(req, res, err);
    }
    return next(req, res);
  };
