// The fuzzing harness against a real suite: generated requests (fuzz-cases.ts) sent to a gateway,
// each answer checked against these properties:
// - every answer is a 4xx Status whose details.causes point at a real field, or a 2xx;
// - no 5xx, and no answer later than the request timeout;
// - a stored object is valid by the same metadata validation and reads back the same in JSON,
//   YAML and the binary envelope;
// - nothing stored changes on a refused request.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { validateObjectMeta } from '@orch/apimachinery/meta';
import { canEncode, decodeEnvelope } from '@orch/apimachinery/protobuf';
import { builtinSchemaModel } from '@orch/apimachinery/schema-model';
import type { FieldSchema, MessageSchema } from '@orch/apimachinery/schema-model';
import { dropHpaRoundTripAnnotations, storagePrefix } from '@orch/apimachinery/registry';
import type { Suite } from '@orch/testing';
import {
  collectionPath,
  describeCase,
  fuzzCase,
  fuzzNamespace,
  fuzzTargets,
  objectPath,
  validObject,
  victimNameFor,
} from './fuzz-cases.js';
import type { FuzzCase, FuzzTarget } from './fuzz-cases.js';

/**
 * The fuzzed suite's gateway flags. Priority and fairness is off: its configuration controller
 * writes the Dangling condition of a FlowSchema victim as the victims come and go, a change the
 * harness would read as one made by a refused request.
 */
export const fuzzGatewayArgs = [
  '--service-cluster-ip-range=10.0.0.0/16',
  '--enable-priority-and-fairness=false',
];

/** Upstream's default --request-timeout: no answer may take longer. */
export const requestTimeoutMs = 60_000;

export interface FuzzStats {
  cases: number;
  /** Answers by status code. */
  codes: Map<number, number>;
  /** Objects stored by the run (2xx to create/update/patch). */
  stored: number;
  /** Requests sent again after a kept-alive socket was reset (the gateway still up). */
  resets: number;
}

export interface FuzzFailure {
  seed: number;
  /** The shrunk case. */
  case: string;
  error: string;
}

type Response = Awaited<ReturnType<Suite['request']>>;

export class ServerFuzzer {
  readonly targets: FuzzTarget[] = fuzzTargets();
  readonly stats: FuzzStats = { cases: 0, codes: new Map(), stored: 0, resets: 0 };
  readonly #suite: Suite;
  /** The case whose request the gateway did not answer (it went down): shrinking cannot help. */
  down: string | undefined;
  /** Objects this run created (target/name): a refused create of one of them is no leak. */
  readonly #created = new Set<string>();
  /**
   * Each target's victim as last read back, by target index: only this harness writes a victim
   * (creates and deletes name other objects, and no controller runs), so the read after one case
   * is the state before the next. A case drops the victims of every target stored with it (two
   * versions of a kind, or one kind in two groups, are one object); a passed case keeps its own.
   */
  readonly #victims = new Map<number, Record<string, unknown>>();
  /** The targets stored under each target's storage prefix (itself included). */
  readonly #sameObject: number[][];

  constructor(suite: Suite) {
    this.#suite = suite;
    const prefixes = this.targets.map((t) => storagePrefix(t.def));
    this.#sameObject = prefixes.map((p) => prefixes.flatMap((q, j) => (q === p ? [j] : [])));
  }

  /** The namespace and one victim per kind, for update and patch. */
  async setUp(): Promise<void> {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: fuzzNamespace } };
    const r = await this.#suite.request(0, 'POST', '/api/v1/namespaces', ns);
    assert.ok(r.status === 201 || r.status === 409, r.text);
    // One after another, in the targets' order: victims direct each other's admission (a
    // LimitRange's bounds refuse a Pod without requests made after it).
    for (const [i, t] of this.targets.entries()) this.#victims.set(i, await this.#ensureVictim(t));
  }

  async #ensureVictim(t: FuzzTarget): Promise<Record<string, unknown>> {
    const got = await this.#request('GET', objectPath(t.def, victimNameFor(t)));
    if (got.status === 200) return got.body as Record<string, unknown>;
    const created = await this.#request(
      'POST',
      collectionPath(t.def),
      validObject(t, victimNameFor(t))
    );
    assert.equal(created.status, 201, `victim ${t.def.kind}: ${created.text}`);
    return created.body as Record<string, unknown>;
  }

  async #request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {}
  ): Promise<Response> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      const err = new Error(`no answer to ${method} ${path} in ${requestTimeoutMs} ms`);
      timer = setTimeout(() => reject(err), requestTimeoutMs);
    });
    try {
      return await Promise.race([this.#suite.request(0, method, path, body, headers), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends one case and checks every property; throws (an AssertionError) on a violation. */
  async check(c: FuzzCase): Promise<void> {
    if (this.down) throw new Error(`the gateway is down since case: ${this.down}`);
    const t = this.targets[c.target] as FuzzTarget;
    // An apply names its manager (required) and forces, so that what is fuzzed is the body.
    const path =
      c.verb === 'create'
        ? collectionPath(t.def)
        : `${objectPath(t.def, c.name)}${c.verb === 'update-status' ? '/status' : ''}` +
          (c.verb === 'apply' ? '?fieldManager=fuzz&force=true' : '');
    const toVictim = c.verb !== 'create' && c.verb !== 'delete';
    const before = toVictim
      ? (this.#victims.get(c.target) ?? (await this.#ensureVictim(t)))
      : undefined;
    if (toVictim) for (const i of this.#sameObject[c.target] ?? []) this.#victims.delete(i);
    const key = `${c.target}/${c.name}`;
    const existed = c.verb === 'create' && this.#created.has(key);
    const methods: Record<string, string> = { create: 'POST', update: 'PUT', delete: 'DELETE' };
    const method = methods[c.verb] ?? (c.verb === 'update-status' ? 'PUT' : 'PATCH');
    // Content-Length set here: Node's client sends a DELETE body unframed otherwise.
    const headers = { 'Content-Type': c.contentType, 'Content-Length': String(c.body.length) };
    let res: Response;
    try {
      res = await this.#request(method, path, Buffer.from(c.body), headers);
    } catch (err) {
      if ((err as { code?: string }).code === undefined) throw err;
      // A kept-alive socket the server closed as it was reused (ECONNRESET) is no crash: the
      // gateway still answers /readyz, and the request is sent once more on a new socket.
      const ready = await this.#request('GET', '/readyz').then(
        (r) => r.status === 200,
        () => false
      );
      if (!ready) {
        this.down = describeCase(c, this.targets);
        throw err;
      }
      this.stats.resets++;
      res = await this.#request(method, path, Buffer.from(c.body), headers);
    }
    this.stats.cases++;
    this.stats.codes.set(res.status, (this.stats.codes.get(res.status) ?? 0) + 1);
    assert.ok(res.status < 500, `answered ${res.status}: ${res.text.slice(0, 500)}`);
    if (res.status >= 400) {
      this.#checkStatus(res, t, c);
      if (before) {
        const after = await this.#request('GET', objectPath(t.def, victimNameFor(t)));
        const why = `a refused ${c.verb} (${res.status}) changed the stored object`;
        assert.deepEqual(
          unlessWrittenByOthers(t, after.body),
          unlessWrittenByOthers(t, before),
          why
        );
        this.#victims.set(c.target, after.body as Record<string, unknown>);
      } else if (c.verb === 'create' && !existed) {
        const after = await this.#request('GET', objectPath(t.def, c.name));
        assert.equal(after.status, 404, `a refused create stored ${c.name}`);
      }
      return;
    }
    assert.ok(res.status >= 200 && res.status < 300, `answered ${res.status}`);
    if (c.verb === 'delete') return;
    if (c.verb === 'create') this.#created.add(key);
    const stored = await this.#checkStored(t, res.body as Record<string, unknown>);
    if (toVictim && stored) this.#victims.set(c.target, stored);
  }

  #checkStatus(res: Response, t: FuzzTarget, c: FuzzCase): void {
    type Details = { causes?: { field?: string; message?: string }[] };
    const s = res.body as { kind?: string; code?: number; status?: string; details?: Details };
    const notStatus = `a ${res.status} that is not a Status: ${res.text.slice(0, 300)}`;
    assert.equal(s.kind, 'Status', notStatus);
    assert.equal(s.code, res.status, 'the Status code is the HTTP code');
    assert.equal(s.status, 'Failure');
    const sent = parseSent(c);
    for (const cause of s.details?.causes ?? []) {
      if (cause.field === undefined || cause.field === 'Content-Type') continue;
      assert.ok(
        fieldIsReal(cause.field, t, sent, cause.message),
        `cause field ${JSON.stringify(cause.field)} points at no field: ${res.text.slice(0, 500)}`
      );
    }
  }

  /**
   * A stored object: valid metadata, and the same in JSON, YAML and the binary envelope (read
   * side by side: nothing else writes it). Returns it as read in JSON, unless it is gone.
   */
  async #checkStored(
    t: FuzzTarget,
    answered: Record<string, unknown>
  ): Promise<Record<string, unknown> | undefined> {
    this.stats.stored++;
    const meta = answered['metadata'] as Record<string, unknown> | undefined;
    const name = String(meta?.['name'] ?? '');
    const errs = validateObjectMeta(validatedMeta(t, meta), {
      namespaced: t.def.namespaced,
      nameRule: t.nameRule,
    });
    assert.deepEqual(errs, [], 'the stored metadata is valid');
    const path = objectPath(t.def, name);
    const binary = { Accept: 'application/vnd.orch.protobuf' };
    const readPb = (): Promise<Response> => this.#request('GET', path, undefined, binary);
    const [asJson, asYaml, pb] = await Promise.all([
      this.#request('GET', path),
      this.#request('GET', path, undefined, { Accept: 'application/yaml' }),
      canEncode(answered) ? readPb() : undefined,
    ]);
    if (asJson.status === 404) return undefined; // created and already gone (nothing blocks its deletion)
    assert.equal(asJson.status, 200, asJson.text);
    assert.equal(asYaml.status, 200, asYaml.text);
    const same = (o: unknown): unknown => unlessWrittenByOthers(t, o);
    assert.deepEqual(same(parseYaml(asYaml.text)), same(asJson.body), 'YAML reads back as JSON');
    if (canEncode(asJson.body)) {
      const asPb = pb ?? (await readPb());
      assert.equal(asPb.status, 200, asPb.text);
      const why = 'the binary envelope reads back as JSON';
      assert.deepEqual(same(decodeEnvelope(asPb.raw)), same(asJson.body), why);
    }
    return asJson.body as Record<string, unknown>;
  }

  /** Runs cases from `seed` until `numRuns` or `timeMs`; returns the failure, shrunk, if any. */
  async run(opts: {
    seed: number;
    numRuns?: number;
    timeMs?: number;
  }): Promise<FuzzFailure | undefined> {
    const arb = fuzzCase(this.targets);
    const details = await fc.check(
      fc.asyncProperty(arb, (c) => this.check(c)),
      {
        seed: opts.seed,
        numRuns: opts.numRuns ?? Number.MAX_SAFE_INTEGER,
        ...(opts.timeMs !== undefined ? { interruptAfterTimeLimit: opts.timeMs } : {}),
        markInterruptAsFailure: false,
        endOnFailure: false,
      }
    );
    if (!details.failed || !details.counterexample) return undefined;
    const err = details.errorInstance;
    return {
      seed: opts.seed,
      case: this.down ?? describeCase(details.counterexample[0], this.targets),
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

/**
 * The object without what other writers may change at any time: an APIService's status (every
 * gateway's availability controller sets its Available condition, and sets it again when a
 * successful write changed its service) and a ResourceQuota's (the quota controller counts
 * what other cases create and delete in its namespace), with the resourceVersion they move.
 */
function unlessWrittenByOthers(t: FuzzTarget, o: unknown): unknown {
  const others = t.def.kind === 'APIService' || t.def.kind === 'ResourceQuota';
  if (!others || !o || typeof o !== 'object') return o;
  const { status: _status, metadata, ...rest } = o as Record<string, unknown>;
  const { resourceVersion: _rv, ...meta } = (metadata ?? {}) as Record<string, unknown>;
  return { ...rest, metadata: meta };
}

function parseSent(c: FuzzCase): unknown {
  try {
    return JSON.parse(Buffer.from(c.body).toString('utf8')) as unknown;
  } catch {
    try {
      return parseYaml(Buffer.from(c.body).toString('utf8'), { maxAliasCount: 10 }) as unknown;
    } catch {
      return undefined;
    }
  }
}

/** `metadata.ownerReferences[0].uid` → ['metadata', 'ownerReferences', '[0]', 'uid']. */
function segments(field: string): string[] {
  return field.match(/[^.[\]]+|\[[^\]]*\]/g) ?? [];
}

/**
 * The metadata as the gateway validated it: a HorizontalPodAutoscaler read in autoscaling/v1
 * carries its v2 fields in annotations the stored object does not have (as upstream's, whose
 * v1 answer may so exceed the annotations' size limit).
 */
function validatedMeta(
  t: FuzzTarget,
  meta: Record<string, unknown> | undefined
): Record<string, unknown> | undefined {
  const hpaV1 =
    t.def.group === 'autoscaling' &&
    t.def.version === 'v1' &&
    t.def.resource === 'horizontalpodautoscalers';
  return hpaV1 && meta ? dropHpaRoundTripAnnotations(meta) : meta;
}

/**
 * Causes whose field upstream writes although it names no field, kept byte for byte: a
 * PersistentVolumeClaim LimitRange item without min or max storage
 * (pkg/apis/core/validation's ValidateLimitRange: `idxPath.Child("limits")`).
 */
const upstreamPaths: Readonly<Record<string, RegExp>> = {
  LimitRange: /^spec\.limits\[\d+\]\.limits$/,
};

/**
 * Whether a cause's field names a field of the kind's schema or of the body sent. An unknown
 * field is named where it was found: its parent is real (the field itself may come from a JSON
 * patch's copy or move, which the body sent does not hold).
 */
export function fieldIsReal(
  field: string,
  t: FuzzTarget,
  sent: unknown,
  message?: string
): boolean {
  const segs = segments(field);
  if (segs.length === 0) return false;
  if (upstreamPaths[t.def.kind]?.test(field)) return true;
  if (message === 'unknown field') {
    const parent = field.slice(0, field.length - (segs[segs.length - 1] as string).length);
    const trimmed = parent.endsWith('.') ? parent.slice(0, -1) : parent;
    return trimmed === '' || fieldIsReal(trimmed, t, sent);
  }
  if (inValue(field.startsWith('[') ? field : `.${field}`, sent)) return true;
  const { group, version, kind: k } = t.def;
  const kind = builtinSchemaModel().kind({ group, version, kind: k });
  return kind ? inSchema(segs, kind.message) : false;
}

/**
 * Whether `rest` (`.a[k].b`, as k8s writes paths: keys in brackets unescaped) names a value
 * inside `v`: keys are matched against the value's own keys, so a key may hold `]` or `.`.
 */
function inValue(rest: string, v: unknown): boolean {
  if (rest === '') return true;
  if (typeof v !== 'object' || v === null) return false;
  for (const [k, x] of Object.entries(v)) {
    for (const form of Array.isArray(v) ? [`[${k}]`] : [`.${k}`, `[${k}]`]) {
      if (rest.startsWith(form) && inValue(rest.slice(form.length), x)) return true;
    }
  }
  return false;
}

function inSchema(segs: string[], m: MessageSchema): boolean {
  let msg: MessageSchema | undefined = m;
  let i = 0;
  while (i < segs.length) {
    if (!msg) return false;
    const seg = segs[i] as string;
    const entry: { field: FieldSchema } | undefined = msg.jsonFields.get(seg);
    if (!entry) return false;
    i++;
    const f: FieldSchema = entry.field;
    if ((f.repeated || f.map) && segs[i]?.startsWith('[')) i++;
    msg = 'message' in f.value ? f.value.message : undefined;
    if (!msg && i < segs.length) return false;
  }
  return true;
}

/** `{ 201: 12, 422: 30 }` in code order. */
export function formatCodes(codes: Map<number, number>): string {
  return [...codes.entries()]
    .sort(([a], [b]) => a - b)
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ');
}
