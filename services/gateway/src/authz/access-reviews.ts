// The access reviews of authorization.orch.io/v1 as virtual resources (k8s
// pkg/registry/authorization): each POST is answered by the authorizer service and never stored.
// The request itself was authorized first (create on the review resource) like any other.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FieldError } from '@orch/apimachinery/errors';
import { newBadRequest, newInvalid } from '@orch/apimachinery/errors';
import { builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { VirtualHandler } from '../endpoints/installer.js';
import { decodeRequestObject } from '../handlers/decode.js';
import { negotiateInput, writableMediaTypes } from '../negotiation/negotiate.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import { userFrom } from '../request/context.js';
import type { UserInfo } from '../request/context.js';
import type { RequestInfo } from '../request/request-info.js';
import { requestUrl } from '../request/request-info.js';
import type { Attributes, Authorizer } from './authorizer.js';
import type { RuleReviewer } from './grpc-authorizer.js';

export const authorizationGroup = 'authorization.orch.io';

type Json = Record<string, unknown>;

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

interface ReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
  namespace?: string;
}

const def = (resource: string): ResourceDefinition => {
  const d = builtinResources.find((x) => x.group === authorizationGroup && x.resource === resource);
  if (!d) throw new Error(`${resource}.${authorizationGroup} is not registered`);
  return d;
};

/** The review in the body, decoded like any create (JSON, YAML or the binary envelope; fieldValidation against the schema). */
function decode(req: IncomingMessage, d: ResourceDefinition, info: RequestInfo): Json {
  const target = d.namespaced ? { namespace: info.namespace } : {};
  const obj = decodeRequestObject(req, requestUrl(req).searchParams, d, negotiateInput(req, writableMediaTypes), target) as unknown as Json;
  obj['spec'] ??= {};
  return obj;
}

/** Exactly one of resourceAttributes and nonResourceAttributes (k8s ValidateSubjectAccessReviewSpec). */
function validateAttributes(spec: ReviewSpec, errs: FieldError[]): void {
  const hasRes = spec.resourceAttributes !== undefined && spec.resourceAttributes !== null;
  const hasNonRes = spec.nonResourceAttributes !== undefined && spec.nonResourceAttributes !== null;
  if (hasRes === hasNonRes) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.resourceAttributes',
      message: 'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      value: spec.resourceAttributes ?? null,
    });
  }
}

function attributesOf(spec: ReviewSpec, user: UserInfo): Attributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      isResourceRequest: true,
      path: '',
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      namespace: r.namespace ?? '',
      name: r.name ?? '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', isResourceRequest: false, path: n.path ?? '', apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  authorizer: Authorizer,
  obj: Json,
  spec: ReviewSpec,
  user: UserInfo
): Promise<void> {
  const { decision, reason } = await authorizer.authorize(attributesOf(spec, user));
  const status: Json = { allowed: decision === 'allow' };
  if (decision === 'deny') status['denied'] = true;
  if (reason) status['reason'] = reason;
  obj['status'] = status;
  writeObjectNegotiated(req, res, 201, obj);
}

const requester = (req: IncomingMessage): UserInfo =>
  userFrom(req) ?? { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} };

/** The virtual handlers, keyed as InstallerDeps.virtual expects. */
export function accessReviewHandlers(authorizer: Authorizer, reviewer: RuleReviewer): Map<string, VirtualHandler> {
  const handlers = new Map<string, VirtualHandler>();
  const key = (resource: string): string => `${authorizationGroup}/v1/${resource}`;
  const only = (info: RequestInfo): void => {
    if (info.verb !== 'create' || info.name) throw newBadRequest(`only create (POST to the collection) is supported on ${info.resource}.${authorizationGroup}`);
  };

  handlers.set(key('subjectaccessreviews'), async (req, res, info) => {
    only(info);
    const d = def('subjectaccessreviews');
    const obj = decode(req, d, info);
    const spec = obj['spec'] as ReviewSpec;
    const errs: FieldError[] = [];
    validateAttributes(spec, errs);
    if (!spec.user && (spec.groups ?? []).length === 0) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.user', message: 'at least one of user or group must be specified', value: spec.user ?? '' });
    }
    if (errs.length) throw newInvalid({ group: d.group, kind: d.kind }, '', errs);
    const user: UserInfo = { name: spec.user ?? '', uid: spec.uid ?? '', groups: spec.groups ?? [], extra: spec.extra ?? {} };
    await answer(req, res, authorizer, obj, spec, user);
  });

  handlers.set(key('localsubjectaccessreviews'), async (req, res, info) => {
    only(info);
    const d = def('localsubjectaccessreviews');
    if (!info.namespace) throw newBadRequest('namespace is required on this type');
    const obj = decode(req, d, info);
    const spec = obj['spec'] as ReviewSpec;
    const errs: FieldError[] = [];
    validateAttributes(spec, errs);
    if (spec.nonResourceAttributes) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', message: 'disallowed on this kind of request', value: spec.nonResourceAttributes });
    }
    if (!spec.user && (spec.groups ?? []).length === 0) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.user', message: 'at least one of user or group must be specified', value: spec.user ?? '' });
    }
    if (errs.length) throw newInvalid({ group: d.group, kind: d.kind }, '', errs);
    const ra = spec.resourceAttributes!;
    if (ra.namespace === undefined || ra.namespace === '') ra.namespace = info.namespace;
    if (ra.namespace !== info.namespace) throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${info.namespace}`);
    const user: UserInfo = { name: spec.user ?? '', uid: spec.uid ?? '', groups: spec.groups ?? [], extra: spec.extra ?? {} };
    await answer(req, res, authorizer, obj, spec, user);
  });

  handlers.set(key('selfsubjectaccessreviews'), async (req, res, info) => {
    only(info);
    const d = def('selfsubjectaccessreviews');
    const obj = decode(req, d, info);
    const spec = obj['spec'] as ReviewSpec;
    const errs: FieldError[] = [];
    validateAttributes(spec, errs);
    if (errs.length) throw newInvalid({ group: d.group, kind: d.kind }, '', errs);
    await answer(req, res, authorizer, obj, spec, requester(req));
  });

  handlers.set(key('selfsubjectrulesreviews'), async (req, res, info) => {
    only(info);
    const d = def('selfsubjectrulesreviews');
    const obj = decode(req, d, info);
    const spec = obj['spec'] as ReviewSpec;
    const r = await reviewer.rulesReview(requester(req), spec.namespace ?? '');
    const status: Json = {
      resourceRules: r.resourceRules.map((x) => ({ verbs: x.verbs, apiGroups: x.apiGroups, resources: x.resources, ...(x.resourceNames.length ? { resourceNames: x.resourceNames } : {}) })),
      nonResourceRules: r.nonResourceRules,
      incomplete: r.incomplete,
    };
    if (r.evaluationError) status['evaluationError'] = r.evaluationError;
    obj['status'] = status;
    writeObjectNegotiated(req, res, 201, obj);
  });
  return handlers;
}
