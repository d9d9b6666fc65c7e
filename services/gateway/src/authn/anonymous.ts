// Anonymous requests (--anonymous-auth): no credentials presented at all.
import type { UserInfo } from '@orch/apimachinery/auth';
import { allUnauthenticated } from '@orch/apimachinery/auth';

export const isAnonymous = (user: UserInfo | undefined): boolean =>
  !user || user.groups.includes(allUnauthenticated);
