// What every handler of one resource needs (k8s handlers.RequestScope).
import type { IncomingMessage } from 'node:http';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { RequestInfo } from '../request/request-info.js';
import type { Store, ValidateObjectFunc } from '../registry/store.js';
import type { Fanout } from '../watch/fanout.js';

export interface RequestScope {
  def: ResourceDefinition;
  store: Store;
  fanout: Fanout;
  /** Checks before a write reaches storage (namespace lifecycle; admission later). */
  validate: ValidateObjectFunc;
  info: RequestInfo;
  query: URLSearchParams;
  req: IncomingMessage;
  /** Longest a watch may run when the client sets no timeoutSeconds. */
  maxWatchSeconds: number;
  onWatchEvent?: () => void;
}

export function namespaceOf(scope: RequestScope): string | undefined {
  return scope.def.namespaced && scope.info.namespace ? scope.info.namespace : undefined;
}
