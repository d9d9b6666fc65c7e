#!/usr/bin/env node
// Regenerates packages/api/src/generated/ from proto/orch/api: the TypeScript types of every API
// kind and of every message they use (the counterpart of upstream's k8s.io/api), one module per
// proto package (group/version), types only. Field names are the JSON names (the protos name
// their fields as the JSON does); the messages with a json_type option are their JSON form
// (Time -> string, IntOrString -> number | string, RawExtension -> unknown...); fields marked
// inline are merged into the parent. Run by `make proto`; `make verify-proto` checks that the
// committed output matches.
//
// The types are type aliases of object literal types, not interfaces, so that they are
// assignable to Record<string, unknown>, the form decoded JSON takes in storage and informers.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const protoRoot = join(repo, 'proto');
const out = join(repo, 'packages', 'api', 'src', 'generated');

const walkProto = (dir) =>
  readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory()
        ? walkProto(p)
        : p.endsWith('.proto')
          ? [relative(protoRoot, p)]
          : [];
    });
const files = walkProto(join(protoRoot, 'orch', 'api')).filter(
  (f) => f !== 'orch/api/options.proto'
);
const root = new protobuf.Root();
root.resolvePath = (_origin, target) =>
  target.startsWith('google/protobuf/')
    ? join(dirname(fileURLToPath(import.meta.resolve('protobufjs'))), target)
    : join(protoRoot, target);
root.loadSync(files, { keepCase: true, alternateCommentMode: true });
root.resolveAll();

// The JSON form of the messages that are not JSON objects (options.proto json_type).
const jsonTypes = {
  time: 'string',
  'micro-time': 'string',
  duration: 'string',
  quantity: 'string',
  'int-or-string': 'number | string',
  raw: 'unknown',
  'fields-v1': 'Record<string, unknown>',
  'string-list': 'string[]',
};
const scalars = {
  string: 'string',
  bool: 'boolean',
  bytes: 'string',
  double: 'number',
  float: 'number',
  int32: 'number',
  int64: 'number',
  uint32: 'number',
  uint64: 'number',
  sint32: 'number',
  sint64: 'number',
  fixed32: 'number',
  fixed64: 'number',
  sfixed32: 'number',
  sfixed64: 'number',
};
// Kinds without ObjectMeta or ListMeta that still carry apiVersion and kind in JSON.
const extraKinds = new Set(['orch.api.meta.v1.DeleteOptions']);

const option = (o, name) => o.options?.[`(orch.api.${name})`];
const pkgOf = (t) => t.parent.fullName.slice(1); // "orch.api.core.v1"
const fileOf = (pkg) => pkg.split('.').slice(2).join('/'); // "core/v1"
const aliasOf = (pkg) =>
  pkg
    .split('.')
    .slice(2)
    .map((p, i) => (i === 0 ? p : p[0].toUpperCase() + p.slice(1)))
    .join(''); // "coreV1"

const packages = new Map();
const collect = (ns) => {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type || nested instanceof protobuf.Enum) {
      const pkg = pkgOf(nested);
      if (!packages.has(pkg)) packages.set(pkg, []);
      packages.get(pkg).push(nested);
    } else if (nested instanceof protobuf.Namespace) collect(nested);
  }
};
collect(root.lookup('orch.api'));

const doc = (comment, indent) => {
  if (!comment) return '';
  const lines = comment.replaceAll('*/', '* /').split('\n');
  return lines.length === 1
    ? `${indent}/** ${lines[0]} */\n`
    : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
};

const generate = (pkg, types) => {
  const imports = new Set();
  const ref = (t) => {
    const p = pkgOf(t);
    if (p === pkg) return t.name;
    imports.add(p);
    return `${aliasOf(p)}.${t.name}`;
  };
  const valueType = (field) => {
    const t = field.resolvedType;
    if (t === null) return scalars[field.type];
    return ref(t);
  };
  const fieldType = (field) =>
    field.map
      ? `Record<string, ${valueType(field)}>`
      : field.repeated
        ? `${wrap(valueType(field))}[]`
        : valueType(field);
  const wrap = (t) => (/[ |]/.test(t) ? `(${t})` : t);

  const body = [];
  for (const t of [...types].sort((a, b) => a.name.localeCompare(b.name))) {
    if (t instanceof protobuf.Enum) {
      body.push(
        `${doc(t.comment, '')}export type ${t.name} = ${Object.keys(t.values)
          .map((v) => JSON.stringify(v))
          .join(' | ')};\n`
      );
      continue;
    }
    const jsonType = option(t, 'json_type');
    if (jsonType !== undefined) {
      if (!(jsonType in jsonTypes)) throw new Error(`${t.fullName}: unknown json_type ${jsonType}`);
      body.push(`${doc(t.comment, '')}export type ${t.name} = ${jsonTypes[jsonType]};\n`);
      continue;
    }
    const meta = t.fields['metadata']?.resolvedType?.fullName;
    const isKind =
      meta === '.orch.api.meta.v1.ObjectMeta' ||
      meta === '.orch.api.meta.v1.ListMeta' ||
      extraKinds.has(t.fullName.slice(1));
    const inlined = [];
    const lines = [];
    if (isKind && !t.fields['apiVersion'] && !t.fields['kind']) {
      lines.push(
        '  /** APIVersion defines the versioned schema of this representation of an object. */',
        '  apiVersion?: string;',
        '  /** Kind is a string value representing the REST resource this object represents. */',
        '  kind?: string;'
      );
    }
    for (const field of t.fieldsArray) {
      if (option(field, 'inline') === true) {
        inlined.push(ref(field.resolvedType));
        continue;
      }
      const required = option(field, 'required') === true;
      lines.push(
        doc(field.comment, '  ').trimEnd(),
        `  ${field.name}${required ? '' : '?'}: ${fieldType(field)};`
      );
    }
    const literal = `{\n${lines.filter((l) => l !== '').join('\n')}\n}`;
    body.push(
      `${doc(t.comment, '')}export type ${t.name} = ${[...inlined, literal].join(' & ')};\n`
    );
  }
  const file = fileOf(pkg);
  const depth = file.split('/').length - 1;
  const head = [
    `// Generated by packages/proto/scripts/generate-api-types.mjs from the proto package ${pkg}`,
    '// (proto/orch/api). Do not edit: change the proto and run `make proto`.',
    '',
    ...[...imports]
      .sort()
      .map(
        (p) =>
          `import type * as ${aliasOf(p)} from '${depth === 0 ? './' : '../'.repeat(depth)}${fileOf(p)}.js';`
      ),
  ];
  return `${head.join('\n')}${imports.size > 0 ? '\n' : ''}\n${body.join('\n')}`;
};

rmSync(out, { recursive: true, force: true });
const written = [];
for (const [pkg, types] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
  const path = join(out, `${fileOf(pkg)}.ts`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, generate(pkg, types));
  written.push(fileOf(pkg));
}
console.log(`generated ${written.length} API type modules: ${written.join(', ')}`);
