// For tests: every message the publisher sends on a subject, collected from a NATS subscription.
import { connect } from 'nats';
import { decodeWatchMessage } from '@orch/apimachinery/watch';
import type { WatchMessage } from '@orch/apimachinery/watch';

export async function collectPublished(
  natsUrl: string,
  subject = 'orch.watch.core.configmaps'
): Promise<{ seen: WatchMessage[]; close(): Promise<void> }> {
  const nc = await connect({ servers: natsUrl });
  const seen: WatchMessage[] = [];
  const sub = nc.subscribe(subject);
  void (async () => {
    for await (const m of sub) seen.push(decodeWatchMessage(m.data));
  })();
  await nc.flush();
  return { seen, close: () => nc.close() };
}
