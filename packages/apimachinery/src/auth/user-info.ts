// The authenticated user (k8s apiserver/pkg/authentication/user.Info): set by authentication,
// replaced by impersonation, read by authorization, audit and admission.

/** Who made a request (k8s user.Info / user.DefaultInfo). */
export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
  /** Extra attributes an authenticator attached (scopes, the service account's pod, ...). */
  extra: Record<string, string[]>;
}

/** The user of a request no authenticator recognised (k8s user.Anonymous). */
export const anonymousUser = 'system:anonymous';
/** The group of every authenticated user (k8s user.AllAuthenticated). */
export const allAuthenticated = 'system:authenticated';
/** The group of the anonymous user (k8s user.AllUnauthenticated). */
export const allUnauthenticated = 'system:unauthenticated';
/** The user of an unauthenticated request: system:anonymous in system:unauthenticated. */
export const anonymousUserInfo = (): UserInfo => ({
  name: anonymousUser,
  uid: '',
  groups: [allUnauthenticated],
  extra: {},
});
/** The prefix of service-account user names (k8s serviceaccount.ServiceAccountUsernamePrefix). */
export const serviceAccountPrefix = 'system:serviceaccount:';
/** The group of every service account (k8s serviceaccount.AllServiceAccountsGroup). */
export const allServiceAccountsGroup = 'system:serviceaccounts';
