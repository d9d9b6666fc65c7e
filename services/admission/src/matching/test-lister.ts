// An ObjectLister over a plain array of objects, for tests of the matching and webhook
// modules (the service's listers are informer-backed; this is the same view over a fixed set).
import type { ApiObject } from '@orch/apimachinery/meta';

import type { ObjectLister } from '../interfaces.js';

export function arrayLister(objects: readonly ApiObject[]): ObjectLister {
  return {
    list(namespace?: string) {
      return objects.filter(
        (o) => namespace === undefined || (o.metadata.namespace ?? '') === namespace
      );
    },
    get(namespace: string, name: string) {
      return objects.find(
        (o) => (o.metadata.namespace ?? '') === namespace && o.metadata.name === name
      );
    },
  };
}
