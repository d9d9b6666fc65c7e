// Anonymous requests (--anonymous-auth): no credentials presented at all.
import type { UserInfo } from '../request/context.js';
import { allUnauthenticated, anonymousUser } from './authenticator.js';

export const anonymousUserInfo = (): UserInfo => ({ name: anonymousUser, uid: '', groups: [allUnauthenticated], extra: {} });

export const isAnonymous = (user: UserInfo | undefined): boolean => !user || user.groups.includes(allUnauthenticated);
