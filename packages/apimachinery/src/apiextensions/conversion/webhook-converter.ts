// Conversion of custom resources by the CRD's conversion webhook (upstream
// k8s.io/apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go): the objects not
// yet at the desired version go in one ConversionReview (the first of the CRD's
// conversionReviewVersions this server speaks), through the webhook client the admission
// webhooks use (@orch/apimachinery/webhook); the reply is checked as upstream checks it (kind,
// uid, result, count, each object's apiVersion, kind, name, namespace and uid), only labels and
// annotations are taken from the converted metadata, and each converted object is pruned to
// the target version's schema (upstream's schemaCoercingConverter). Every failure is upstream's
// `conversion webhook for <group/version>, Kind=<kind> failed: ...` as a 500.
import { randomUUID } from 'node:crypto';

import { apiextensionsGroup } from '../types.js';
import { pruneObject } from '../structural/prune-object.js';
import type { CustomResourceDefinition } from '../types.js';
import { fieldErrorMessage, newInternalError } from '../../errors/index.js';
import { validateAnnotations, validateLabels } from '../../meta/index.js';
import { newAuthenticationInfoResolver, newWebhookClient } from '../../webhook/index.js';
import type { WebhookClient } from '../../webhook/index.js';

/** The ConversionReview versions this server speaks, in upstream's order of checking. */
export const supportedConversionReviewVersions = ['v1', 'v1beta1'] as const;

/**
 * How long one call may take. Upstream sets no deadline of its own (the request's context
 * bounds it); 30 s is the longest an admission webhook may be given.
 */
export const conversionWebhookTimeoutMs = 30_000;

/**
 * The signal of a call: none is cancelled, as upstream's converter passes a context that is never
 * cancelled; the deadline bounds it.
 */
const notCancelled = new AbortController().signal;

/** Nobody's credentials: upstream's conversion webhooks get an empty credential file. */
const noCredentials = newAuthenticationInfoResolver(new Map());

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A failed conversion: `msg` follows upstream's "conversion webhook for <gvk> ..." text. */
class ConversionError extends Error {}

export interface WebhookConverterOptions {
  /** Where a `clientConfig.service` is dialled (`name.namespace.svc[:port]` → `host:port`). */
  serviceAddresses: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

/** One CRD's webhook converter; close() when the CRD's configuration is replaced. */
export class WebhookConverter {
  readonly #crd: CustomResourceDefinition;
  readonly #reviewVersion: string | undefined;
  readonly #client: WebhookClient | undefined;
  /** Why no client could be built (upstream fails each conversion with it). */
  readonly #clientError: string | undefined;
  readonly #timeoutMs: number;

  constructor(crd: CustomResourceDefinition, opts: WebhookConverterOptions) {
    this.#crd = crd;
    this.#timeoutMs = opts.timeoutMs ?? conversionWebhookTimeoutMs;
    const webhook = crd.spec.conversion?.webhook;
    this.#reviewVersion = (webhook?.conversionReviewVersions ?? []).find((v) =>
      (supportedConversionReviewVersions as readonly string[]).includes(v)
    );
    let client: WebhookClient | undefined;
    let clientError: string | undefined;
    try {
      if (!webhook?.clientConfig) throw new Error('no clientConfig');
      client = newWebhookClient(webhook.clientConfig, opts.serviceAddresses, noCredentials);
    } catch (err) {
      clientError = `could not get REST client: ${(err as Error).message}`;
    }
    this.#client = client;
    this.#clientError = clientError;
  }

  close(): void {
    this.#client?.close();
  }

  /**
   * `objs` (never mutated) at `apiVersion`: those already there as they are, the others
   * converted by the webhook in one call. Rejects with a 500 StatusError naming the webhook's
   * failure.
   */
  async convert(objs: readonly Obj[], apiVersion: string): Promise<Obj[]> {
    const toConvert = objs.filter((o) => o['apiVersion'] !== apiVersion);
    if (toConvert.length === 0) return [...objs];
    const first = toConvert[0]!;
    const gvk = `${String(first['apiVersion'])}, Kind=${String(first['kind'])}`;
    try {
      const converted = await this.#call(toConvert, apiVersion, gvk);
      let next = 0;
      return objs.map((o) => (o['apiVersion'] === apiVersion ? o : converted[next++]!));
    } catch (err) {
      const message =
        err instanceof ConversionError
          ? err.message
          : `conversion webhook for ${gvk} failed: ${(err as Error).message}`;
      throw newInternalError(message);
    }
  }

  async #call(objects: readonly Obj[], desiredAPIVersion: string, gvk: string): Promise<Obj[]> {
    const version = this.#reviewVersion;
    if (!version) throw new ConversionError('no supported conversion review versions');
    if (!this.#client) throw new Error(this.#clientError ?? 'no client');
    const uid = randomUUID();
    const reviewApiVersion = `${apiextensionsGroup}/${version}`;
    const review = {
      apiVersion: reviewApiVersion,
      kind: 'ConversionReview',
      request: { uid, desiredAPIVersion, objects },
    };
    const reply = await this.#client.post(review, this.#timeoutMs, notCancelled);
    const converted = convertedObjectsOf(reply.body, version, reviewApiVersion, uid);
    if (converted.length !== objects.length) {
      throw new ConversionError(
        `conversion webhook for ${gvk} returned ${converted.length} objects, expected ${objects.length}`
      );
    }
    const single = objects.length === 1;
    return converted.map((out, i) => {
      const at = single ? 'at index 0' : `at index ${i}`;
      const original = objects[i]!;
      const invalid = (why: string): ConversionError =>
        new ConversionError(
          single
            ? `conversion webhook for ${gvk} returned invalid object ${at}: ${why}`
            : `conversion webhook for ${gvk} returned invalid converted object ${at}: ${why}`
        );
      if (!isObj(out)) throw invalid('not an object');
      if (out['apiVersion'] !== desiredAPIVersion) {
        throw invalid(
          `invalid groupVersion (expected ${desiredAPIVersion}, received ${String(out['apiVersion'])})`
        );
      }
      if (out['kind'] !== original['kind']) {
        throw invalid(
          `invalid kind (expected ${String(original['kind'])}, received ${String(out['kind'])})`
        );
      }
      const sameMeta = checkSameIdentity(original, out);
      if (sameMeta) {
        throw new ConversionError(
          single
            ? `conversion webhook for ${gvk} returned invalid object: ${sameMeta}`
            : `conversion webhook for ${gvk} returned invalid converted object ${at}: ${sameMeta}`
        );
      }
      const result = structuredClone(out);
      const metaError = restoreObjectMeta(original, result);
      if (metaError) {
        throw new ConversionError(
          single
            ? `conversion webhook for ${gvk} returned invalid metadata: ${metaError}`
            : `conversion webhook for ${gvk} returned invalid metadata in object ${at}: ${metaError}`
        );
      }
      this.#prune(result, desiredAPIVersion);
      return result;
    });
  }

  /** Drops what the target version's schema does not specify (upstream's coercing converter). */
  #prune(obj: Obj, apiVersion: string): void {
    if (this.#crd.spec.preserveUnknownFields) return;
    const name = apiVersion.slice(apiVersion.indexOf('/') + 1);
    const schema = this.#crd.spec.versions.find((v) => v.name === name)?.schema?.openAPIV3Schema;
    if (schema) pruneObject(obj, schema, { isResourceRoot: true });
  }
}

/** The reply's convertedObjects, after upstream's getConvertedObjectsFromResponse checks. */
function convertedObjectsOf(
  body: unknown,
  version: string,
  reviewApiVersion: string,
  uid: string
): unknown[] {
  if (!isObj(body)) throw new Error('the reply is not a ConversionReview object');
  if (
    version === 'v1' &&
    (body['apiVersion'] !== reviewApiVersion || body['kind'] !== 'ConversionReview')
  ) {
    throw new Error(
      `expected webhook response of ${reviewApiVersion}, Kind=ConversionReview, got ${String(body['apiVersion'])}, Kind=${String(body['kind'])}`
    );
  }
  const response = body['response'];
  if (!isObj(response)) throw new Error('no response provided');
  // v1beta1 replies were never checked for their uid (upstream keeps that for compatibility).
  if (version === 'v1' && response['uid'] !== uid) {
    throw new Error(
      `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response['uid'] ?? '')}`
    );
  }
  const result = isObj(response['result']) ? response['result'] : {};
  if (result['status'] !== 'Success') {
    const message = typeof result['message'] === 'string' ? result['message'] : '';
    if (message) throw new Error(message);
    throw new Error(
      `response.result.status was '${String(result['status'] ?? '')}', not 'Success'`
    );
  }
  const objects = response['convertedObjects'] ?? [];
  if (!Array.isArray(objects)) throw new Error('response.convertedObjects is not a list');
  return objects;
}

function metaOf(o: Obj): Obj {
  return isObj(o['metadata']) ? o['metadata'] : {};
}

/** Upstream validateConvertedObject: name, namespace and uid unchanged ('' when unchanged). */
function checkSameIdentity(original: Obj, converted: Obj): string {
  const a = metaOf(original);
  const b = metaOf(converted);
  for (const [field, what] of [
    ['name', 'name'],
    ['namespace', 'namespace'],
    ['uid', 'UID'],
  ] as const) {
    const e = String(a[field] ?? '');
    const g = String(b[field] ?? '');
    if (e !== g) return `must have the same ${what}: ${e} != ${g}`;
  }
  return '';
}

/**
 * Upstream restoreObjectMeta: `converted` gets a copy of the original's metadata, with the
 * labels and annotations the webhook returned (validated when they changed). Returns the
 * problem, '' when there is none.
 */
function restoreObjectMeta(original: Obj, converted: Obj): string {
  const response = converted['metadata'];
  if (response === undefined) return 'missing metadata in converted object';
  if (!isObj(response)) return `invalid metadata of type ${typeof response} in converted object`;
  const meta = structuredClone(metaOf(original));
  converted['metadata'] = meta;
  for (const field of ['labels', 'annotations'] as const) {
    const given = response[field];
    if (given === undefined || given === null) {
      delete meta[field];
      continue;
    }
    if (!isObj(given))
      return `invalid metadata.${field} of type ${typeof given} in converted object`;
    const before = isObj(meta[field]) ? (meta[field] as Obj) : {};
    let changed = Object.keys(before).length !== Object.keys(given).length;
    for (const [k, v] of Object.entries(given)) {
      if (typeof v !== 'string') {
        return `metadata.${field}[${k}] must be a string, but is ${typeof v} in converted object`;
      }
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const values = given as Record<string, string>;
      const errs =
        field === 'labels'
          ? validateLabels(values, 'metadata.labels')
          : validateAnnotations(values, 'metadata.annotation');
      // Go's ErrorList.ToAggregate().Error(): one message, or several in brackets.
      const messages = errs.map(fieldErrorMessage);
      if (messages.length === 1) return messages[0]!;
      if (messages.length > 1) return `[${messages.join(', ')}]`;
    }
    meta[field] = given;
  }
  return '';
}
