// The --admission-control-config-file reader (k8s.io/apiserver/pkg/admission/config.go,
// ReadAdmissionConfiguration and GetAdmissionPluginConfigurationFor; the kind is
// apiserver.config.k8s.io/v1 AdmissionConfiguration): a YAML or JSON file naming plugins, each
// with its configuration inline or in a file whose path is relative to this file's directory.
// The result maps a plugin name to its parsed configuration, which becomes `PluginDeps.config`.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';

import type { FieldError } from '@orch/apimachinery/errors';
import {
  fieldDuplicate,
  fieldErrorMessage,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import { parse as parseYaml } from 'yaml';

export const admissionConfigurationApiVersion = 'apiserver.config.orch.io/v1';
export const admissionConfigurationKind = 'AdmissionConfiguration';

/** One plugin's entry after reading: its parsed configuration, and where it came from. */
export interface AdmissionPluginConfiguration {
  name: string;
  /** The parsed `configuration`, or the parsed content of `path`; undefined when neither is set. */
  configuration: unknown;
  /** The absolute path the configuration was read from, when the entry names one. */
  path?: string;
}

/** A configuration file that cannot be used; the message names the file and the field. */
export class AdmissionConfigurationError extends Error {
  override readonly name = 'AdmissionConfigurationError';
  readonly file: string;
  readonly errors: readonly FieldError[];

  constructor(file: string, errors: readonly FieldError[], detail?: string) {
    super(
      `admission configuration ${file}: ${detail ?? errors.map((e) => fieldErrorMessage(e)).join(', ')}`
    );
    this.file = file;
    this.errors = errors;
  }
}

const topLevelKeys = new Set(['apiVersion', 'kind', 'plugins']);
const entryKeys = new Set(['name', 'path', 'configuration']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseDocument(text: string): unknown {
  // YAML 1.2 is a superset of JSON, so one parser reads both forms (upstream's YAMLOrJSONDecoder).
  return parseYaml(text);
}

/**
 * Reads an AdmissionConfiguration file and the files its entries name. `knownPlugins` are the
 * plugin names the service has; an entry for any other name is an error (a typo would otherwise
 * leave a plugin silently unconfigured). Throws {@link AdmissionConfigurationError}.
 */
export async function readAdmissionConfiguration(
  file: string,
  knownPlugins: readonly string[]
): Promise<Map<string, AdmissionPluginConfiguration>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new AdmissionConfigurationError(file, [], `cannot read: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseDocument(text);
  } catch (err) {
    throw new AdmissionConfigurationError(
      file,
      [],
      `not valid YAML or JSON: ${(err as Error).message}`
    );
  }
  if (!isObject(doc)) {
    throw new AdmissionConfigurationError(
      file,
      [],
      `expected an ${admissionConfigurationKind} object (${admissionConfigurationApiVersion})`
    );
  }

  const errors: FieldError[] = [];
  if (doc['apiVersion'] === undefined) {
    errors.push(fieldRequired(newPath('apiVersion')));
  } else if (doc['apiVersion'] !== admissionConfigurationApiVersion) {
    errors.push(
      fieldNotSupported(newPath('apiVersion'), doc['apiVersion'], [
        admissionConfigurationApiVersion,
      ])
    );
  }
  if (doc['kind'] === undefined) {
    errors.push(fieldRequired(newPath('kind')));
  } else if (doc['kind'] !== admissionConfigurationKind) {
    errors.push(fieldNotSupported(newPath('kind'), doc['kind'], [admissionConfigurationKind]));
  }
  for (const key of Object.keys(doc)) {
    if (!topLevelKeys.has(key)) errors.push(fieldForbidden(newPath(key), 'unknown field'));
  }
  const plugins = doc['plugins'] ?? [];
  if (!Array.isArray(plugins)) {
    errors.push(fieldInvalid(newPath('plugins'), plugins, 'must be a list'));
  }
  if (errors.length > 0) throw new AdmissionConfigurationError(file, errors);

  const base = dirname(file);
  const known = new Set(knownPlugins);
  const seen = new Set<string>();
  const result = new Map<string, AdmissionPluginConfiguration>();
  const pending: { entry: AdmissionPluginConfiguration; index: number }[] = [];
  (plugins as unknown[]).forEach((raw, i) => {
    const at = newPath('plugins').index(i);
    if (!isObject(raw)) {
      errors.push(fieldInvalid(at, raw, 'must be an object with name and path or configuration'));
      return;
    }
    for (const key of Object.keys(raw)) {
      if (!entryKeys.has(key)) errors.push(fieldForbidden(at.child(key), 'unknown field'));
    }
    const name = raw['name'];
    if (name === undefined || name === '') {
      errors.push(fieldRequired(at.child('name')));
      return;
    }
    if (typeof name !== 'string') {
      errors.push(fieldInvalid(at.child('name'), name, 'must be a string'));
      return;
    }
    if (seen.has(name)) {
      errors.push(fieldDuplicate(at.child('name'), name));
      return;
    }
    seen.add(name);
    if (!known.has(name)) {
      errors.push(fieldNotSupported(at.child('name'), name, [...knownPlugins]));
      return;
    }
    const path = raw['path'];
    const hasConfiguration = raw['configuration'] !== undefined && raw['configuration'] !== null;
    if (path !== undefined && typeof path !== 'string') {
      errors.push(fieldInvalid(at.child('path'), path, 'must be a string'));
      return;
    }
    if (path && hasConfiguration) {
      errors.push(
        fieldForbidden(at.child('path'), 'may not be set together with configuration; set one')
      );
      return;
    }
    if (hasConfiguration) {
      if (!isObject(raw['configuration'])) {
        errors.push(
          fieldInvalid(at.child('configuration'), raw['configuration'], 'must be an object')
        );
        return;
      }
      result.set(name, { name, configuration: raw['configuration'] });
    } else if (path) {
      const entry = {
        name,
        configuration: undefined,
        path: isAbsolute(path) ? path : join(base, path),
      };
      result.set(name, entry);
      pending.push({ entry, index: i });
    } else {
      // Upstream: an entry with neither is the plugin with an empty configuration.
      result.set(name, { name, configuration: undefined });
    }
  });
  if (errors.length > 0) throw new AdmissionConfigurationError(file, errors);

  for (const { entry, index } of pending) {
    const at = newPath('plugins').index(index).child('path');
    const path = entry.path ?? '';
    let content: string;
    try {
      content = await readFile(path, 'utf8');
    } catch (err) {
      throw new AdmissionConfigurationError(file, [
        fieldInvalid(at, path, `cannot read: ${(err as Error).message}`),
      ]);
    }
    try {
      entry.configuration = parseDocument(content);
    } catch (err) {
      throw new AdmissionConfigurationError(file, [
        fieldInvalid(at, path, `not valid YAML or JSON: ${(err as Error).message}`),
      ]);
    }
  }
  return result;
}

/** The map the service feeds into `PluginDeps.config`: plugin name → parsed configuration. */
export function pluginConfigurations(
  entries: ReadonlyMap<string, AdmissionPluginConfiguration>
): Map<string, unknown> {
  return new Map([...entries].map(([name, e]) => [name, e.configuration]));
}
