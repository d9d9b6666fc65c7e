// How the authorizer writes RBAC objects through the public API, with its own identity: the
// bootstrap policy's reconciler and role aggregation.
import { rbacGroup } from './informer-source.js';

type Json = Record<string, unknown>;

/** The part of `RestClient` (`@orch/apimachinery/client`) the reconcilers use. */
export interface PolicyClient {
  request(method: string, path: string, body?: unknown): Promise<Json>;
}

/** Path of a cluster-scoped RBAC resource (and object) in the public API. */
export const rbacPath = (resource: string, name?: string): string =>
  `/apis/${rbacGroup}/v1/${resource}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
