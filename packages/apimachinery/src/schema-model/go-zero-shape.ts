// The shape upstream's objects always have because Go writes them from typed structs: a field
// Go always writes (./go-always-written.ts) that an object leaves out gets its zero value, an
// empty struct as `{}` or a scalar as 0, "" or false. applyDefaults with `goShape` fills each
// object it visits before its defaults (as Go decodes into zero structs, then defaults them), so
// `status: {loadBalancer: {}}` for a Service, `status: {phase: Pending}` in a StatefulSet's
// claim templates, and `resources: {}` wherever a container is. What the client set is never
// changed, and filling twice changes nothing.
import type { FieldSchema, MessageSchema } from './schema-model.js';
import { goAlwaysWritten } from './go-always-written.js';

type Json = Record<string, unknown>;

const prefix = 'orch.api.';

function alwaysWritten(m: MessageSchema): readonly string[] | undefined {
  return m.fullName.startsWith(prefix)
    ? goAlwaysWritten.get(m.fullName.slice(prefix.length))
    : undefined;
}

function zeroOf(f: FieldSchema): unknown {
  if ('message' in f.value) return {};
  switch (f.value.scalar) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    default:
      return 0;
  }
}

/**
 * Sets, in place, the always-written fields an object of message `m` leaves out to their zero
 * value (not its children: applyDefaults visits them, see its `goShape` option).
 */
export function fillAlwaysWritten(m: MessageSchema, obj: Json): void {
  for (const key of alwaysWritten(m) ?? []) {
    const f = m.jsonFields.get(key)?.field;
    if (f && obj[key] === undefined) obj[key] = zeroOf(f);
  }
}
