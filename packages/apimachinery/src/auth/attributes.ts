// What a request wants to do, as an authorizer sees it (k8s
// apiserver/pkg/authorization/authorizer.Attributes, AttributesRecord).
import type { UserInfo } from './user-info.js';

/** The attributes of one request (k8s authorizer.AttributesRecord), the user nested. */
export interface Attributes {
  user: UserInfo;
  /**
   * get, list, watch, create, update, patch, delete, deletecollection, impersonate, ...; or the
   * lowercased HTTP method for non-resource paths.
   */
  verb: string;
  isResourceRequest: boolean;
  /** The URL path, for non-resource requests. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}
