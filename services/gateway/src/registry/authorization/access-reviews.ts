// The access reviews of authorization.orch.io/v1 as create-only REST objects (k8s
// pkg/registry/authorization/*/rest.go): each POST goes through the common create handler
// (decode, field validation, the validate step, negotiated answer) and is answered by the
// authorizer service, never stored. The request itself was authorized first (create on the
// review resource) like any other.
import type { FieldError } from '@orch/apimachinery/errors';
import { newBadRequest, newInvalid } from '@orch/apimachinery/errors';
import { builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Attributes, UserInfo } from '@orch/apimachinery/auth';
import { anonymousUserInfo } from '@orch/apimachinery/auth';
import { restKey } from '../rest.js';
import type { CreateOptions, Creater, RestContext, Storage } from '../rest.js';
import type { Authorizer } from '../../authz/authorizer.js';
import type { RuleReviewer } from '../../authz/grpc-authorizer.js';

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

/** The review's spec, present whatever the body held. */
function specOf(obj: ApiObject): ReviewSpec {
  return (obj['spec'] ??= {}) as ReviewSpec;
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
  return {
    user,
    verb: n.verb ?? '',
    isResourceRequest: false,
    path: n.path ?? '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
  };
}

async function answer(
  authorizer: Authorizer,
  obj: ApiObject,
  spec: ReviewSpec,
  user: UserInfo
): Promise<ApiObject> {
  const { decision, reason } = await authorizer.authorize(attributesOf(spec, user));
  const status: Json = { allowed: decision === 'allow' };
  if (decision === 'deny') status['denied'] = true;
  if (reason) status['reason'] = reason;
  obj['status'] = status;
  return obj;
}

const requester = (ctx: RestContext): UserInfo => ctx.user ?? anonymousUserInfo();

const subjectOf = (spec: ReviewSpec): UserInfo => ({
  name: spec.user ?? '',
  uid: spec.uid ?? '',
  groups: spec.groups ?? [],
  extra: spec.extra ?? {},
});

const invalid = (kind: ResourceDefinition, errs: FieldError[]) =>
  newInvalid({ group: kind.group, kind: kind.kind }, '', errs);

function requireSubject(spec: ReviewSpec, errs: FieldError[]): void {
  if (!spec.user && (spec.groups ?? []).length === 0) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.user',
      message: 'at least one of user or group must be specified',
      value: spec.user ?? '',
    });
  }
}

/** SubjectAccessReview: may the user or groups of the spec do what it names? */
export class SubjectAccessReviewRest implements Creater {
  readonly objectKind = def('subjectaccessreviews');
  readonly #authorizer: Authorizer;

  constructor(authorizer: Authorizer) {
    this.#authorizer = authorizer;
  }

  async create(_ctx: RestContext, obj: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    const spec = specOf(obj);
    const errs: FieldError[] = [];
    validateAttributes(spec, errs);
    requireSubject(spec, errs);
    if (errs.length) throw invalid(this.objectKind, errs);
    await opts.createValidation?.(obj, undefined);
    return answer(this.#authorizer, obj, spec, subjectOf(spec));
  }
}

/** LocalSubjectAccessReview: a SubjectAccessReview within the namespace of the path. */
export class LocalSubjectAccessReviewRest implements Creater {
  readonly objectKind = def('localsubjectaccessreviews');
  readonly #authorizer: Authorizer;

  constructor(authorizer: Authorizer) {
    this.#authorizer = authorizer;
  }

  async create(ctx: RestContext, obj: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    const namespace = ctx.namespace;
    if (!namespace) throw newBadRequest('namespace is required on this type');
    const spec = specOf(obj);
    const errs: FieldError[] = [];
    validateAttributes(spec, errs);
    if (spec.nonResourceAttributes) {
      errs.push({
        type: 'FieldValueInvalid',
        field: 'spec.nonResourceAttributes',
        message: 'disallowed on this kind of request',
        value: spec.nonResourceAttributes,
      });
    }
    requireSubject(spec, errs);
    if (errs.length) throw invalid(this.objectKind, errs);
    const ra = spec.resourceAttributes!;
    if (ra.namespace === undefined || ra.namespace === '') ra.namespace = namespace;
    if (ra.namespace !== namespace) {
      throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
    }
    await opts.createValidation?.(obj, undefined);
    return answer(this.#authorizer, obj, spec, subjectOf(spec));
  }
}

/** SelfSubjectAccessReview: may the requester do what the spec names? */
export class SelfSubjectAccessReviewRest implements Creater {
  readonly objectKind = def('selfsubjectaccessreviews');
  readonly #authorizer: Authorizer;

  constructor(authorizer: Authorizer) {
    this.#authorizer = authorizer;
  }

  async create(ctx: RestContext, obj: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    const spec = specOf(obj);
    const errs: FieldError[] = [];
    validateAttributes(spec, errs);
    if (errs.length) throw invalid(this.objectKind, errs);
    await opts.createValidation?.(obj, undefined);
    return answer(this.#authorizer, obj, spec, requester(ctx));
  }
}

/** SelfSubjectRulesReview: what may the requester do in the spec's namespace? */
export class SelfSubjectRulesReviewRest implements Creater {
  readonly objectKind = def('selfsubjectrulesreviews');
  readonly #reviewer: RuleReviewer;

  constructor(reviewer: RuleReviewer) {
    this.#reviewer = reviewer;
  }

  async create(ctx: RestContext, obj: ApiObject, opts: CreateOptions): Promise<ApiObject> {
    const spec = specOf(obj);
    await opts.createValidation?.(obj, undefined);
    const r = await this.#reviewer.rulesReview(requester(ctx), spec.namespace ?? '');
    const status: Json = {
      resourceRules: r.resourceRules.map((x) => ({
        verbs: x.verbs,
        apiGroups: x.apiGroups,
        resources: x.resources,
        ...(x.resourceNames.length ? { resourceNames: x.resourceNames } : {}),
      })),
      nonResourceRules: r.nonResourceRules,
      incomplete: r.incomplete,
    };
    if (r.evaluationError) status['evaluationError'] = r.evaluationError;
    obj['status'] = status;
    return obj;
  }
}

/** The four access reviews, keyed by restKey. */
export function accessReviewStorage(
  authorizer: Authorizer,
  reviewer: RuleReviewer
): Map<string, Storage> {
  const rests = [
    new SubjectAccessReviewRest(authorizer),
    new LocalSubjectAccessReviewRest(authorizer),
    new SelfSubjectAccessReviewRest(authorizer),
    new SelfSubjectRulesReviewRest(reviewer),
  ];
  return new Map(rests.map((r): [string, Storage] => [restKey(r.objectKind), r]));
}
