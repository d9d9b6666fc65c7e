// The webhook backend (upstream's plugin/pkg/audit/webhook): each batch POSTed as one
// audit.orch.io/v1 EventList to the server of a kubeconfig-format file, retried with
// exponential backoff (initial --audit-webhook-initial-backoff, factor 1.5, 5 tries) on a
// connection error or a 5xx; batching and the buffer are buffered.ts's. The list is encoded once,
// not at every try, and only its bytes are kept while it is retried: with the server down, a
// minute of events waits in retries, and as objects they would weigh on every collection.
import { kubeconfigClient } from '../../authn/kubeconfig-client.js';
import type { AuditEvent } from '../event.js';
import { auditGroupVersion } from '../policy/types.js';

const requestTimeoutMs = 30_000;
const tries = 5;

export function webhookSender(
  configFile: string,
  initialBackoffMs: number
): (events: AuditEvent[]) => Promise<void> {
  const client = kubeconfigClient(configFile);
  const post = async (list: Buffer): Promise<void> => {
    let delay = initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      let failure: string;
      try {
        const r = await client.post(list, requestTimeoutMs);
        if (r.status >= 200 && r.status < 300) return;
        failure = `status ${r.status}`;
        if (r.status < 500) throw new Error(`audit webhook answered ${failure}`);
      } catch (err) {
        failure = (err as Error).message;
        if (failure.startsWith('audit webhook answered')) throw err;
      }
      if (attempt >= tries) throw new Error(`audit webhook failed ${tries} times: ${failure}`);
      await new Promise((r) => setTimeout(r, delay * (1 + Math.random() * 0.2)).unref());
      delay *= 1.5;
    }
  };
  return (events) =>
    post(
      Buffer.from(
        JSON.stringify({
          kind: 'EventList',
          apiVersion: auditGroupVersion,
          metadata: {},
          items: events,
        })
      )
    );
}
