// MutatingWebhookConfiguration and ValidatingWebhookConfiguration validation, as k8s
// pkg/apis/admissionregistration/validation (validateMutatingWebhookConfiguration,
// validateValidatingWebhookConfiguration and their Update forms with upstream's ratcheting) and
// k8s.io/apiserver pkg/util/webhook ValidateWebhookURL / ValidateWebhookService.
import { X509Certificate } from 'node:crypto';
import {
  fieldDuplicate,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isDNS1123Subdomain, sameJson } from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  hasInvalidLabelValueInSelector,
  validateLabelSelector,
} from './validate-label-selector.js';
import {
  isObject,
  list,
  strings,
  supportedFailurePolicies,
  supportedMatchPolicies,
  text,
  validateMatchConditions,
  validateRuleWithOperations,
} from './validate-rules.js';
import type { ExpressionOptions, Json } from './validate-rules.js';

export const acceptedAdmissionReviewVersions = ['v1', 'v1beta1'] as const;
export const noSideEffectClasses = ['None', 'NoneOnDryRun'] as const;
/** Side effect classes only v1beta1 allowed; kept valid on update of an object that has them. */
const legacySideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'] as const;
export const supportedReinvocationPolicies = ['IfNeeded', 'Never'] as const;

export interface WebhookValidationOptions extends ExpressionOptions {
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
  ignoreMatchConditions: boolean;
}

/** The options of a create (upstream's strictest). */
export const createWebhookOptions: WebhookValidationOptions = {
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
  ignoreMatchConditions: false,
};

const dns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** k8s IsDNS1035Label. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035Label.test(value))
    errs.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
    );
  return errs;
}

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
export function validateFullyQualifiedName(name: string, path: FieldPath): FieldError[] {
  if (name === '') return [fieldRequired(path, '')];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [fieldInvalid(path, name, errs.join(','))];
  if (name.split('.').length < 3)
    return [
      fieldInvalid(path, name, 'should be a domain with at least three segments separated by dots'),
    ];
  return [];
}

const form = '; desired format: https://host[/path]';

/** webhook.ValidateWebhookURL with forceHttps. */
export function validateWebhookURL(raw: string, path: FieldPath): FieldError[] {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(raw))
    // No scheme: Go's url.Parse reads it all as a path.
    return [
      fieldInvalid(path, '', `'https' is the only allowed URL scheme${form}`),
      fieldInvalid(path, '', `host must be specified${form}`),
    ];
  let u: URL;
  try {
    u = new URL(raw);
  } catch (err) {
    return [fieldRequired(path, `url must be a valid URL: ${(err as Error).message}${form}`)];
  }
  const errs: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https')
    errs.push(fieldInvalid(path, scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host === '') errs.push(fieldInvalid(path, u.host, `host must be specified${form}`));
  if (u.username !== '' || u.password !== '' || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw))
    errs.push(
      fieldInvalid(
        path,
        u.password ? `${u.username}:${u.password}` : u.username,
        'user information is not permitted in the URL'
      )
    );
  const hash = raw.indexOf('#');
  if (hash >= 0 && hash < raw.length - 1)
    errs.push(fieldInvalid(path, raw.slice(hash + 1), 'fragments are not permitted in the URL'));
  const query = u.search.replace(/^\?/, '');
  if (query !== '')
    errs.push(fieldInvalid(path, query, 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService. */
export function validateWebhookService(service: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (text(service['name']) === '')
    errs.push(fieldRequired(path.child('name'), 'service name is required'));
  if (text(service['namespace']) === '')
    errs.push(fieldRequired(path.child('namespace'), 'service namespace is required'));
  const port = service['port'] ?? 443;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    errs.push(
      fieldInvalid(
        path.child('port'),
        port,
        'port is not valid: must be between 1 and 65535, inclusive'
      )
    );
  if (typeof service['path'] !== 'string') return errs;
  const urlPath = service['path'];
  if (urlPath === '/' || urlPath === '') return errs;
  const p = path.child('path');
  if (urlPath === '//') return [...errs, fieldInvalid(p, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(fieldInvalid(p, urlPath, "must start with a '/'"));
  let check = urlPath.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(fieldInvalid(p, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step))
      errs.push(fieldInvalid(p, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** caBundle, when set: base64 of PEM text holding at least one CERTIFICATE block, every block parseable. */
export function validateCABundle(value: unknown, path: FieldPath): FieldError[] {
  if (value === undefined || value === null || value === '') return [];
  const pem = Buffer.from(String(value), 'base64').toString('latin1');
  const blocks = [...pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g)];
  if (blocks.length === 0)
    return [fieldInvalid(path, '<bytes>', 'must be a PEM encoded CA bundle (no PEM block found)')];
  const errs: FieldError[] = [];
  blocks.forEach((b, i) => {
    if (b[1] !== 'CERTIFICATE') {
      errs.push(fieldInvalid(path, '<bytes>', `PEM block ${i} is a ${b[1]}, not a CERTIFICATE`));
      return;
    }
    try {
      new X509Certificate(b[0]);
    } catch (err) {
      errs.push(
        fieldInvalid(
          path,
          '<bytes>',
          `PEM block ${i} is not a valid certificate: ${(err as Error).message}`
        )
      );
    }
  });
  return errs;
}

function validateAdmissionReviewVersions(
  versions: unknown,
  requireRecognized: boolean,
  path: FieldPath
): FieldError[] {
  const vs = strings(versions);
  if (vs.length === 0)
    return [
      fieldRequired(path, `must specify one of ${acceptedAdmissionReviewVersions.join(', ')}`),
    ];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasAccepted = false;
  vs.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldInvalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(fieldInvalid(path.index(i), v, msg));
    if ((acceptedAdmissionReviewVersions as readonly string[]).includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted)
    errs.push(
      fieldInvalid(
        path,
        vs,
        `must include at least one of ${acceptedAdmissionReviewVersions.join(', ')}`
      )
    );
  return errs;
}

function validateWebhook(
  hook: Json,
  mutating: boolean,
  opts: WebhookValidationOptions,
  path: FieldPath
): FieldError[] {
  const errs = validateFullyQualifiedName(text(hook['name']), path.child('name'));
  list(hook['rules']).forEach((r, i) => {
    errs.push(...validateRuleWithOperations(isObject(r) ? r : {}, path.child('rules').index(i)));
  });
  const fp = hook['failurePolicy'];
  if (fp !== undefined && !(supportedFailurePolicies as readonly unknown[]).includes(fp))
    errs.push(fieldNotSupported(path.child('failurePolicy'), fp, supportedFailurePolicies));
  const mp = hook['matchPolicy'];
  if (mp !== undefined && !(supportedMatchPolicies as readonly unknown[]).includes(mp))
    errs.push(fieldNotSupported(path.child('matchPolicy'), mp, supportedMatchPolicies));
  const rp = hook['reinvocationPolicy'];
  if (
    mutating &&
    rp !== undefined &&
    !(supportedReinvocationPolicies as readonly unknown[]).includes(rp)
  )
    errs.push(
      fieldNotSupported(path.child('reinvocationPolicy'), rp, supportedReinvocationPolicies)
    );
  const allowed: readonly string[] = opts.requireNoSideEffects
    ? noSideEffectClasses
    : legacySideEffectClasses;
  const se = hook['sideEffects'];
  if (se === undefined || se === null)
    errs.push(
      fieldRequired(path.child('sideEffects'), `must specify one of ${allowed.join(', ')}`)
    );
  else if (!allowed.includes(String(se)))
    errs.push(fieldNotSupported(path.child('sideEffects'), se, allowed));
  const timeout = hook['timeoutSeconds'];
  if (timeout !== undefined && (typeof timeout !== 'number' || timeout > 30 || timeout < 1))
    errs.push(
      fieldInvalid(
        path.child('timeoutSeconds'),
        timeout,
        'the timeout value must be between 1 and 30 seconds'
      )
    );
  const selOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  for (const sel of ['namespaceSelector', 'objectSelector'])
    errs.push(...validateLabelSelector(hook[sel], selOpts, path.child(sel)));
  const cc = isObject(hook['clientConfig']) ? hook['clientConfig'] : {};
  const ccPath = path.child('clientConfig');
  const hasURL = typeof cc['url'] === 'string';
  const hasService = isObject(cc['service']);
  if (hasURL === hasService)
    errs.push(fieldRequired(ccPath, 'exactly one of url or service is required'));
  else if (hasURL) errs.push(...validateWebhookURL(cc['url'] as string, ccPath.child('url')));
  else errs.push(...validateWebhookService(cc['service'] as Json, ccPath.child('service')));
  errs.push(...validateCABundle(cc['caBundle'], ccPath.child('caBundle')));
  if (!opts.ignoreMatchConditions)
    errs.push(
      ...validateMatchConditions(
        hook['matchConditions'],
        'webhookMatchCondition',
        { hasParams: false, variables: [] },
        opts,
        path.child('matchConditions')
      )
    );
  return errs;
}

/** A webhook configuration's webhooks (metadata is validated by the Store). */
export function validateWebhookConfiguration(
  obj: ApiObject,
  mutating: boolean,
  opts: WebhookValidationOptions = createWebhookOptions
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list(obj['webhooks']).forEach((item, i) => {
    const hook = isObject(item) ? item : {};
    const p = newPath('webhooks').index(i);
    errs.push(...validateWebhook(hook, mutating, opts, p));
    errs.push(
      ...validateAdmissionReviewVersions(
        hook['admissionReviewVersions'],
        opts.requireRecognizedAdmissionReviewVersion,
        p.child('admissionReviewVersions')
      )
    );
    const name = text(hook['name']);
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

const hooksOf = (o: ApiObject): Json[] => list(o['webhooks']).filter(isObject);

/** The update options from the stored object: upstream ratchets what older objects may hold. */
export function webhookUpdateOptions(
  obj: ApiObject,
  old: ApiObject,
  expr: ExpressionOptions
): WebhookValidationOptions {
  const oldHooks = hooksOf(old);
  const newHooks = hooksOf(obj);
  const names = oldHooks.map((h) => text(h['name']));
  return {
    ...expr,
    requireNoSideEffects: oldHooks.every((h) =>
      (noSideEffectClasses as readonly unknown[]).includes(h['sideEffects'])
    ),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) =>
      strings(h['admissionReviewVersions']).some((v) =>
        (acceptedAdmissionReviewVersions as readonly string[]).includes(v)
      )
    ),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: oldHooks.some(
      (h) =>
        hasInvalidLabelValueInSelector(h['namespaceSelector']) ||
        hasInvalidLabelValueInSelector(h['objectSelector'])
    ),
    ignoreMatchConditions:
      newHooks.length === oldHooks.length &&
      oldHooks.every((h, i) => sameJson(h['matchConditions'], newHooks[i]?.['matchConditions'])),
    preexistingExpressions: new Set(
      oldHooks.flatMap((h) =>
        list(h['matchConditions']).map((c) => (isObject(c) ? text(c['expression']).trim() : ''))
      )
    ),
  };
}
