// APIServices (k8s kube-aggregator pkg/registry/apiservice/strategy.go and
// pkg/apis/apiregistration/validation): the name is `<version>.<group>`, priorities in range, a
// local APIService (no service) has no caBundle nor insecureSkipTLSVerify, a service has a
// namespace, a name and a valid port; the status subresource checks its conditions' status.
import { fieldInvalid, fieldNotSupported, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isDNS1123Subdomain, isValidPathSegmentName } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { statusStrategy } from '../../status-rest.js';
import { list, obj, str } from '../../unstructured.js';
import { isValidPortNum } from '../../validation.js';
import { isDNS1035Label } from '../../admissionregistration/validate-webhook-configuration.js';

const conditionStatuses = ['True', 'False', 'Unknown'];
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** ValidateAPIService (its ObjectMeta name rule: a path segment that is `version.group`). */
export function validateAPIService(api: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(api['spec']);
  const group = str(spec['group']);
  const version = str(spec['version']);
  const requiredName = `${version}.${group}`;
  // Upstream's name function ignores `prefix`: a generateName must be version.group too (and a
  // whole path segment: '.' and '..' are refused, which the generic prefix rule lets through).
  const named: [string, string][] = [
    ['name', api.metadata.name ?? ''],
    ['generateName', api.metadata.generateName ?? ''],
  ];
  for (const [field, value] of named) {
    if (value === '') continue;
    const segment = isValidPathSegmentName(value);
    if (field === 'generateName')
      for (const m of segment.filter((m) => !m.startsWith('may not contain')))
        errs.push(fieldInvalid(newPath('metadata', field), value, m));
    if (segment.length === 0 && value !== requiredName)
      errs.push(
        fieldInvalid(
          newPath('metadata', field),
          value,
          `must be \`spec.version+"."+spec.group\`: "${requiredName}"`
        )
      );
  }
  if (group === '' && version !== 'v1')
    errs.push(
      fieldRequired(
        newPath('spec', 'group'),
        'only v1 may have an empty group and it better be legacy kube'
      )
    );
  if (group !== '')
    for (const m of isDNS1123Subdomain(group))
      errs.push(fieldInvalid(newPath('spec', 'group'), group, m));
  for (const m of isDNS1035Label(version))
    errs.push(fieldInvalid(newPath('spec', 'version'), version, m));
  const groupPriority = num(spec['groupPriorityMinimum']);
  if (groupPriority <= 0 || groupPriority > 20000)
    errs.push(
      fieldInvalid(
        newPath('spec', 'groupPriorityMinimum'),
        groupPriority,
        'must be positive and less than 20000'
      )
    );
  const versionPriority = num(spec['versionPriority']);
  if (versionPriority <= 0 || versionPriority > 1000)
    errs.push(
      fieldInvalid(
        newPath('spec', 'versionPriority'),
        versionPriority,
        'must be positive and less than 1000'
      )
    );
  const caBundle = str(spec['caBundle']);
  // caBundle is base64 in JSON; upstream counts the decoded bytes.
  const caBytes = Buffer.from(caBundle, 'base64').length;
  const insecure = spec['insecureSkipTLSVerify'] === true;
  if (spec['service'] === undefined || spec['service'] === null) {
    if (caBytes !== 0)
      errs.push(
        fieldInvalid(
          newPath('spec', 'caBundle'),
          `${caBytes} bytes`,
          'local APIServices may not have a caBundle'
        )
      );
    if (insecure)
      errs.push(
        fieldInvalid(
          newPath('spec', 'insecureSkipTLSVerify'),
          insecure,
          'local APIServices may not have insecureSkipTLSVerify'
        )
      );
    return errs;
  }
  const service = obj(spec['service']);
  if (str(service['namespace']) === '')
    errs.push(fieldRequired(newPath('spec', 'service', 'namespace'), ''));
  if (str(service['name']) === '') errs.push(fieldRequired(newPath('spec', 'service', 'name'), ''));
  const port = num(service['port']);
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0)
    errs.push(
      fieldInvalid(
        newPath('spec', 'service', 'port'),
        port,
        `port is not valid: ${portErrs.join(', ')}`
      )
    );
  if (insecure && caBytes > 0)
    errs.push(
      fieldInvalid(
        newPath('spec', 'insecureSkipTLSVerify'),
        insecure,
        'may not be true if caBundle is present'
      )
    );
  return errs;
}

/** ValidateAPIServiceStatus. */
export function validateAPIServiceStatus(api: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  list(obj(api['status'])['conditions']).forEach((c, i) => {
    const status = obj(c)['status'];
    if (!conditionStatuses.includes(str(status)))
      errs.push(
        fieldNotSupported(
          newPath('status', 'conditions').index(i).child('status'),
          status,
          conditionStatuses
        )
      );
  });
  return errs;
}

export const apiServiceStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  nameRule: 'path-segment',
  validate: validateAPIService,
  validateUpdate: (next) => validateAPIService(next),
};

/** apiServiceStatusStrategy: status writes keep the spec; ValidateAPIServiceStatusUpdate. */
export const apiServiceStatusStrategy: Strategy = statusStrategy(apiServiceStrategy, (next) =>
  validateAPIServiceStatus(next)
);
