// A namespace as the built-in plugins read it (upstream's namespace lister with a live lookup
// when the lister has not seen it): the namespaces informer, asked again for a short while when
// the namespace is not there yet. The gateway's NamespaceLifecycle has already found the
// namespace by the time a write reaches the service, so an absent one is the informer's lag
// behind a namespace just created, not a missing namespace.
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Listers } from './interfaces.js';

export interface NamespaceLookupOptions {
  /** Tries before giving up (default 20). */
  attempts?: number;
  /** Wait between tries, ms (default 50). */
  intervalMs?: number;
}

export async function lookupNamespace(
  listers: Listers,
  name: string,
  signal?: AbortSignal,
  opts: NamespaceLookupOptions = {}
): Promise<ApiObject | undefined> {
  const attempts = opts.attempts ?? 20;
  const interval = opts.intervalMs ?? 50;
  for (let i = 0; i < attempts; i++) {
    const ns = listers.namespaces.get('', name);
    if (ns) return ns;
    if (signal?.aborted || i === attempts - 1) break;
    await new Promise((r) => setTimeout(r, interval));
  }
  return undefined;
}
