// One scenario over a StorageInterface, written down as a transcript: what each call answered,
// objects and Status errors whole, revisions named after the write that made them. The
// in-memory storage's unit test and the storage service's integration test both compare their
// transcript with `storageContractTranscript`, so that the fake cannot drift from the service.
//
// Revisions are relative: the service's publisher writes checkpoints into etcd whenever it
// likes, so a revision is named `wN` (the Nth write of the scenario), and a revision read as
// "the current one" (a list's, a history's end) only has to be at least the last write's.
import { StatusError } from '@orch/apimachinery/errors';
import type { StorageInterface } from '@orch/apimachinery/storage';

export { storageContractTranscript } from './storage-contract-transcript.js';

type Json = Record<string, unknown>;

export interface ContractStep {
  step: string;
  result: unknown;
}

/** The type the scenario writes under; its storage must hold nothing else of it. */
export const storageContractPrefix = '/registry/contract.orch.io/widgets/';

/** The size limit the storage under test must be given (`--max-object-size-bytes`). */
export const storageContractMaxObjectBytes = 100_000;

const widget = (ns: string, name: string, more: Json = {}): Json => ({
  apiVersion: 'contract.orch.io/v1',
  kind: 'Widget',
  metadata: { name, namespace: ns, uid: `uid-${name}`, labels: { tier: name < 'c' ? 'a' : 'b' } },
  spec: { size: 1 },
  ...more,
});

/**
 * Runs the scenario; `compact` compacts the storage at a revision (etcd's compaction, or
 * MemoryStorage.compact). Reads that wait for a future revision take the storage's wait (3 s
 * for the service).
 */
export async function storageContract(
  storage: StorageInterface,
  compact: (revision: number) => Promise<void>
): Promise<ContractStep[]> {
  const p = storageContractPrefix;
  const steps: ContractStep[] = [];
  const writes: number[] = [];
  const start = await storage.currentRevision();
  writes.push(start);

  /** A revision by the write that made it (`w0`: the revision before the scenario). */
  const rev = (n: number): string => {
    const i = writes.indexOf(n);
    return i >= 0 ? `w${i}` : `unknown(${n - start})`;
  };
  /** A revision read as the current one: at least the last write's. */
  const current = (n: number): string =>
    n >= writes[writes.length - 1]! ? 'current' : `behind(${rev(n)})`;
  const rvOf = (o: Json): number =>
    Number((o['metadata'] as { resourceVersion?: string } | undefined)?.resourceVersion);
  const norm = (o: Json): Json => {
    const meta = o['metadata'] as Json | undefined;
    if (!meta || meta['resourceVersion'] === undefined) return o;
    return { ...o, metadata: { ...meta, resourceVersion: rev(rvOf(o)) } };
  };
  const normStatus = (e: StatusError): Json => {
    const status = JSON.parse(JSON.stringify(e.status)) as Json;
    const message = String(status['message'] ?? '');
    const tooLarge = /^Too large resource version: (\d+), current: (\d+)$/.exec(message);
    status['message'] = tooLarge
      ? `Too large resource version: ${rev(Number(tooLarge[1]) - 1000)}+1000, current: ${current(Number(tooLarge[2]))}`
      : message.replace(
          /(resource version: )(\d+)(?: \((\d+)\))?/,
          (_, head: string, a: string, b?: string) =>
            `${head}${rev(Number(a))}${b === undefined ? '' : ` (${rev(Number(b))})`}`
        );
    return status;
  };
  /** Runs a call; a write's revision is remembered before anything is written down. */
  const call = async <T>(
    step: string,
    fn: () => Promise<T>,
    show: (r: T) => unknown,
    wrote?: (r: T) => number
  ): Promise<T | undefined> => {
    try {
      const r = await fn();
      if (wrote) writes.push(wrote(r));
      steps.push({ step, result: show(r) });
      return r;
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      steps.push({ step, result: { error: normStatus(err) } });
      return undefined;
    }
  };
  const write = (step: string, fn: () => Promise<Json>): Promise<Json | undefined> =>
    call(step, fn, norm, rvOf);
  const names = (items: Json[]): string[] =>
    items.map((o) => `${rev(rvOf(o))} ${(o['metadata'] as { name: string }).name}`);

  // Writes and their preconditions.
  const a = await write('create a', () => storage.create(`${p}ns1/a`, widget('ns1', 'a')));
  const w1 = rvOf(a!);
  await write('create a again', () => storage.create(`${p}ns1/a`, widget('ns1', 'a')));
  await call('get a', () => storage.get(`${p}ns1/a`, 'MOST_RECENT'), norm);
  const a2 = await write('update a at its revision', () =>
    storage.update(`${p}ns1/a`, widget('ns1', 'a', { spec: { size: 2 } }), { revision: w1 })
  );
  const w2 = rvOf(a2!);
  await write('update a at a stale revision', () =>
    storage.update(`${p}ns1/a`, widget('ns1', 'a'), { revision: w1 })
  );
  await write('update a with another uid', () =>
    storage.update(`${p}ns1/a`, widget('ns1', 'a'), { uid: 'other' })
  );
  await write('update a missing object', () =>
    storage.update(`${p}ns1/zz`, widget('ns1', 'zz'), {})
  );
  await write('create an object over the size limit', () =>
    storage.create(
      `${p}ns1/big`,
      widget('ns1', 'big', { spec: { blob: 'x'.repeat(storageContractMaxObjectBytes) } })
    )
  );
  await write('create an object that keeps a resourceVersion', () =>
    storage.create(`${p}ns1/b`, {
      ...widget('ns1', 'b'),
      metadata: { resourceVersion: '7', name: 'b', namespace: 'ns1', uid: 'uid-b' },
    })
  );

  // Reads at a revision.
  await call(
    'get a exactly at its first revision',
    () => storage.get(`${p}ns1/a`, 'EXACT', w1),
    norm
  );
  await call(
    'get a exactly at a future revision',
    () => storage.get(`${p}ns1/a`, 'EXACT', w2 + 1000),
    norm
  );
  await call('get a missing object', () => storage.get(`${p}ns1/zz`, 'MOST_RECENT'), norm);
  await call(
    'get a not older than a future revision',
    () => storage.get(`${p}ns1/a`, 'NOT_OLDER_THAN', w2 + 1000),
    norm
  );

  // Lists: pages of one snapshot, selectors, exact revisions.
  for (const name of ['c', 'd', 'e']) {
    await write(`create ${name}`, () => storage.create(`${p}ns1/${name}`, widget('ns1', name)));
  }
  await write('create x in ns2', () => storage.create(`${p}ns2/x`, widget('ns2', 'x')));
  const ns1 = `${p}ns1/`;
  const page = (r: {
    items: Json[];
    revision: number;
    continueToken: string;
    remainingItemCount: number;
  }) => ({
    items: names(r.items),
    revision: current(r.revision),
    more: r.continueToken !== '',
    remainingItemCount: r.remainingItemCount,
  });
  const page1 = await call(
    'list ns1, 2 a page',
    () => storage.list({ prefix: ns1, consistency: 'MOST_RECENT', limit: 2 }),
    page
  );
  await write('create f after the snapshot', () => storage.create(`${p}ns1/f`, widget('ns1', 'f')));
  const page2 = await call(
    'list ns1, page 2',
    () =>
      storage.list({
        prefix: ns1,
        consistency: 'MOST_RECENT',
        limit: 2,
        continueToken: page1?.continueToken ?? '',
      }),
    (r) => ({ ...page(r), revision: r.revision === page1?.revision ? 'page 1' : 'other' })
  );
  await call(
    'list ns1, page 3',
    () =>
      storage.list({
        prefix: ns1,
        consistency: 'MOST_RECENT',
        limit: 2,
        continueToken: page2?.continueToken ?? '',
      }),
    (r) => ({ ...page(r), revision: r.revision === page1?.revision ? 'page 1' : 'other' })
  );
  await call('list every namespace', () => storage.list({ prefix: p, consistency: 'ANY' }), page);
  await call(
    'list ns1 by label, 1 a page',
    () =>
      storage.list({ prefix: ns1, consistency: 'MOST_RECENT', labelSelector: 'tier=b', limit: 1 }),
    page
  );
  await call(
    'list ns1 by field',
    () =>
      storage.list({ prefix: ns1, consistency: 'MOST_RECENT', fieldSelector: 'metadata.name=d' }),
    page
  );
  await call(
    'list ns1 exactly at a past revision',
    () => storage.list({ prefix: ns1, consistency: 'EXACT', revision: w2 }),
    (r) => ({ ...page(r), revision: rev(r.revision) })
  );
  await call(
    'list raw bytes',
    () =>
      storage.listRaw({
        prefix: ns1,
        consistency: 'MOST_RECENT',
        fieldSelector: 'metadata.name=a',
      }),
    (r) => r.items.map((b) => b.toString('utf8').replace(`"${w2}"`, '"w2"'))
  );
  await call(
    'list with a bad label selector',
    () => storage.list({ prefix: ns1, consistency: 'MOST_RECENT', labelSelector: 'a in (' }),
    page
  );
  await call(
    'list with a bad continue token',
    () => storage.list({ prefix: ns1, consistency: 'MOST_RECENT', continueToken: 'garbage!' }),
    page
  );
  await call(
    'list exactly without a revision',
    () => storage.list({ prefix: ns1, consistency: 'EXACT' }),
    page
  );
  await call(
    'list a prefix outside the registry',
    () => storage.list({ prefix: '/elsewhere/', consistency: 'MOST_RECENT' }),
    page
  );

  // Deletes.
  const c = await call('get c', () => storage.get(`${p}ns1/c`, 'MOST_RECENT'), norm);
  await call(
    'delete c with another uid',
    () => storage.delete(`${p}ns1/c`, { uid: 'other' }),
    (r) => ({ ...r, object: norm(r.object), revision: rev(r.revision) })
  );
  await call(
    'delete c at a stale revision',
    () => storage.delete(`${p}ns1/c`, { revision: w1 }),
    (r) => ({ ...r, object: norm(r.object), revision: rev(r.revision) })
  );
  await call(
    'delete c at its revision',
    () => storage.delete(`${p}ns1/c`, { revision: rvOf(c!), uid: 'uid-c' }),
    (r) => ({ object: norm(r.object), revision: rev(r.revision) }),
    (r) => r.revision
  );
  await call(
    'delete c again',
    () => storage.delete(`${p}ns1/c`, {}),
    (r) => ({ object: norm(r.object), revision: rev(r.revision) })
  );
  await write('create c again', () => storage.create(`${p}ns1/c`, widget('ns1', 'c')));

  // History.
  const events: string[] = [];
  await call(
    'history after the start',
    () =>
      storage.history(p, start, (e) => {
        const name = (e.object['metadata'] as { name: string }).name;
        const prev = e.prevObject ? ` prev ${rev(rvOf(e.prevObject))}` : '';
        events.push(
          `${e.type} ${e.key.slice(p.length)} ${rev(e.revision)} ${name} ${rev(rvOf(e.object))}${prev}`
        );
      }),
    (until) => ({ until: current(until), events })
  );
  await call('history of a namespace', () => storage.history(ns1, start, () => undefined), String);

  // Compaction: the revisions before it are gone.
  const token = page1?.continueToken ?? '';
  const last = writes[writes.length - 1]!;
  await compact(last);
  await call(
    'list exactly at a compacted revision',
    () => storage.list({ prefix: ns1, consistency: 'EXACT', revision: w2 }),
    page
  );
  await call(
    'list with a continue token of a compacted revision',
    () => storage.list({ prefix: ns1, consistency: 'MOST_RECENT', limit: 2, continueToken: token }),
    page
  );
  await call(
    'get exactly at a compacted revision',
    () => storage.get(`${p}ns1/a`, 'EXACT', w1),
    norm
  );
  await call(
    'history after a compacted revision',
    () => storage.history(p, start, () => undefined),
    String
  );
  await call(
    'history from the compaction on',
    () => storage.history(p, last - 1, () => undefined),
    (until) => current(until)
  );
  return steps;
}
