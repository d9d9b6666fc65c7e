// For tests: every message the publisher sends on a subject, collected from a NATS subscription.
import { connect } from 'nats';
import { decodeWatchMessage } from '@orch/apimachinery/watch';
import type { WatchMessage } from '@orch/apimachinery/watch';

export interface Published {
  seen: WatchMessage[];
  /** The changes seen (progress left out), each object's name with its revision, in order. */
  changes(): { name: string; revision: number }[];
  close(): Promise<void>;
}

export async function collectPublished(
  natsUrl: string,
  subject = 'orch.watch.core.configmaps'
): Promise<Published> {
  const nc = await connect({ servers: natsUrl });
  const seen: WatchMessage[] = [];
  const sub = nc.subscribe(subject);
  void (async () => {
    for await (const m of sub) seen.push(decodeWatchMessage(m.data));
  })();
  await nc.flush();
  const changes = (): { name: string; revision: number }[] =>
    seen.flatMap((m) =>
      m.type === 'PROGRESS'
        ? []
        : [{ name: (m.object['metadata'] as { name: string }).name, revision: m.revision }]
    );
  return { seen, changes, close: () => nc.close() };
}
