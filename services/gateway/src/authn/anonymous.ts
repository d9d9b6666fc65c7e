// Anonymous requests (--anonymous-auth): no credentials presented at all.
import type { UserInfo } from '@orch/apimachinery/auth';
import { allUnauthenticated, anonymousUser } from '@orch/apimachinery/auth';

export const anonymousUserInfo = (): UserInfo => ({
  name: anonymousUser,
  uid: '',
  groups: [allUnauthenticated],
  extra: {},
});

export const isAnonymous = (user: UserInfo | undefined): boolean =>
  !user || user.groups.includes(allUnauthenticated);
