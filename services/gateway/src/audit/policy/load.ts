// Reading and validating the policy of --audit-policy-file (YAML or JSON), as upstream's
// audit/policy/reader.go and apis/audit/validation: every error at once, with its field path.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { auditGroupVersion, levels, stages } from './types.js';
import type { GroupResources, Policy } from './types.js';

const ruleFields = new Set([
  'level',
  'users',
  'userGroups',
  'verbs',
  'resources',
  'namespaces',
  'nonResourceURLs',
  'omitStages',
  'omitManagedFields',
]);
const policyFields = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'rules',
  'omitStages',
  'omitManagedFields',
]);
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function loadPolicyFile(path: string): Policy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`failed to read audit policy file ${path}: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new Error(`failed to decode audit policy file ${path}: ${(e as Error).message}`);
  }
  const errs = validatePolicy(doc);
  if (errs.length > 0) throw new Error(`invalid audit policy file ${path}: ${errs.join('; ')}`);
  const policy = doc as Policy;
  if (policy.rules.length === 0)
    throw new Error(`loaded illegal policy with 0 rules from file ${path}`);
  return policy;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(v: unknown, path: string, errs: string[]): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
    errs.push(`${path}: Invalid value: must be a list of strings`);
    return [];
  }
  return v as string[];
}

function unknownFields(o: Record<string, unknown>, known: Set<string>, path: string): string[] {
  return Object.keys(o)
    .filter((k) => !known.has(k))
    .map((k) => `${path}${path ? '.' : ''}${k}: unknown field`);
}

function validateOmitStages(v: unknown, path: string, errs: string[]): void {
  for (const [i, s] of stringList(v, path, errs).entries())
    if (!(stages as readonly string[]).includes(s))
      errs.push(`${path}[${i}]: Unsupported value: "${s}": supported values: ${stages.join(', ')}`);
}

/** Every error of a decoded policy document, empty when it is valid. */
export function validatePolicy(doc: unknown): string[] {
  const errs: string[] = [];
  if (!isObject(doc)) return ['the document is not an object'];
  errs.push(...unknownFields(doc, policyFields, ''));
  if (doc.apiVersion !== auditGroupVersion)
    errs.push(
      `apiVersion: Unsupported value: "${String(doc.apiVersion)}": must be ${auditGroupVersion}`
    );
  if (doc.kind !== 'Policy')
    errs.push(`kind: Unsupported value: "${String(doc.kind)}": must be Policy`);
  validateOmitStages(doc.omitStages, 'omitStages', errs);
  if (doc.omitManagedFields !== undefined && typeof doc.omitManagedFields !== 'boolean')
    errs.push('omitManagedFields: Invalid value: must be a boolean');
  if (doc.rules === undefined) doc.rules = [];
  if (!Array.isArray(doc.rules)) errs.push('rules: Invalid value: must be a list');
  else doc.rules.forEach((r, i) => validateRule(r, `rules[${i}]`, errs));
  return errs;
}

function validateRule(r: unknown, path: string, errs: string[]): void {
  if (!isObject(r)) {
    errs.push(`${path}: Invalid value: must be an object`);
    return;
  }
  errs.push(...unknownFields(r, ruleFields, path));
  if (r.level === undefined || r.level === '') errs.push(`${path}.level: Required value`);
  else if (!(levels as readonly unknown[]).includes(r.level))
    errs.push(
      `${path}.level: Unsupported value: "${String(r.level)}": supported values: ${levels.join(', ')}`
    );
  stringList(r.users, `${path}.users`, errs);
  stringList(r.userGroups, `${path}.userGroups`, errs);
  stringList(r.verbs, `${path}.verbs`, errs);
  const namespaces = stringList(r.namespaces, `${path}.namespaces`, errs);
  const urls = stringList(r.nonResourceURLs, `${path}.nonResourceURLs`, errs);
  urls.forEach((u, i) => {
    const at = `${path}.nonResourceURLs[${i}]`;
    if (u === '') errs.push(`${at}: Invalid value: "": non-resource URL rules may not be empty`);
    else if (!u.startsWith('/'))
      errs.push(
        `${at}: Invalid value: "${u}": non-resource URL rules must begin with a '/' character`
      );
    else if (u.slice(0, -1).includes('*'))
      errs.push(
        `${at}: Invalid value: "${u}": non-resource URL wildcards '*' must be the final character of the rule`
      );
  });
  let resources: unknown[] = [];
  if (r.resources !== undefined && r.resources !== null) {
    if (Array.isArray(r.resources)) resources = r.resources;
    else errs.push(`${path}.resources: Invalid value: must be a list`);
  }
  resources.forEach((gr, i) => validateGroupResources(gr, `${path}.resources[${i}]`, errs));
  validateOmitStages(r.omitStages, `${path}.omitStages`, errs);
  if (r.omitManagedFields !== undefined && typeof r.omitManagedFields !== 'boolean')
    errs.push(`${path}.omitManagedFields: Invalid value: must be a boolean`);
  if (urls.length > 0 && (resources.length > 0 || namespaces.length > 0))
    errs.push(
      `${path}.nonResourceURLs: Invalid value: rules cannot apply to both regular resources and non-resource URLs`
    );
}

function validateGroupResources(v: unknown, path: string, errs: string[]): void {
  if (!isObject(v)) {
    errs.push(`${path}: Invalid value: must be an object`);
    return;
  }
  errs.push(
    ...unknownFields(
      v,
      new Set<keyof GroupResources>(['group', 'resources', 'resourceNames']),
      path
    )
  );
  if (v.group !== undefined && typeof v.group !== 'string')
    errs.push(`${path}.group: Invalid value: must be a string`);
  else if (v.group && !dns1123Subdomain.test(v.group))
    errs.push(`${path}.group: Invalid value: "${v.group}": must be a DNS-1123 subdomain`);
  const resources = stringList(v.resources, `${path}.resources`, errs);
  const names = stringList(v.resourceNames, `${path}.resourceNames`, errs);
  if (names.length > 0)
    resources.forEach((res, i) => {
      if (res === '*' || res.startsWith('*/'))
        errs.push(
          `${path}.resources[${i}]: Invalid value: "${res}": using resourceNames with wildcard resources is not allowed`
        );
    });
}
