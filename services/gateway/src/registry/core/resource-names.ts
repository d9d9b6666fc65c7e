// Resource name rules shared by quota and limit range validation (k8s pkg/apis/core/helper
// IsStandard*ResourceName, pkg/apis/core/validation validateResourceName).
import { fieldInvalid } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isQualifiedName } from '@orch/apimachinery/meta';

const computeNames = [
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
];

const standardResources = new Set([
  ...computeNames,
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);

const standardQuotaResources = new Set([
  ...computeNames,
  'requests.storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

/** Counted in whole objects: a quota on them must be an integer (IsIntegerResourceName). */
const integerResources = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'services.nodeports',
  'services.loadbalancers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
]);

const isHugePages = (n: string): boolean =>
  n.startsWith('hugepages-') || n.startsWith('requests.hugepages-');

export const isStandardQuotaResourceName = (n: string): boolean =>
  standardQuotaResources.has(n) || isHugePages(n);

/** A fully qualified name outside the native domains (kubernetes.io, orch.io), not requests.* */
export function isExtendedResourceName(n: string): boolean {
  if (!n.includes('/') || n.startsWith('requests.')) return false;
  const domain = n.split('/')[0]!;
  if (domain.endsWith('kubernetes.io') || domain.endsWith('orch.io')) return false;
  return isQualifiedName(`requests.${n}`).length === 0;
}

export const isIntegerResourceName = (n: string): boolean =>
  integerResources.has(n) || isExtendedResourceName(n);

/** Overcommit (a limit above the request) is allowed for the native resources only. */
export const isOvercommitAllowed = (n: string): boolean =>
  !n.includes('/') && !n.startsWith('hugepages-');

/** validateResourceName: a qualified name, and a standard one when it has no domain. */
export function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((m) => fieldInvalid(path, name, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !(standardResources.has(name) || isHugePages(name))) {
    errs.push(fieldInvalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** validateContainerResourceName: cpu, memory, ephemeral-storage, hugepages or extended. */
export function validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!['cpu', 'memory', 'ephemeral-storage'].includes(name) && !name.startsWith('hugepages-')) {
      errs.push(fieldInvalid(path, name, 'must be a standard resource for containers'));
    }
  } else {
    const domain = name.split('/')[0]!;
    const native = domain.endsWith('kubernetes.io') || domain.endsWith('orch.io');
    if (!native && !isExtendedResourceName(name)) {
      errs.push(fieldInvalid(path, name, "doesn't follow extended resource name standard"));
    }
  }
  return errs;
}
