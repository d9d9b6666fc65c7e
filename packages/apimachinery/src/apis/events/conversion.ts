// Core v1 Events and events.orch.io/v1 Events are one collection, stored as core v1; this is
// the conversion between the two (upstream pkg/apis/events/v1/conversion.go:
// Convert_v1_Event_To_core_Event, Convert_core_Event_To_v1_Event): regarding is involvedObject,
// note is message, reportingController is reportingComponent, deprecatedSource /
// deprecatedFirstTimestamp / deprecatedLastTimestamp / deprecatedCount are source /
// firstTimestamp / lastTimestamp / count; the rest keeps its name. Registered in the built-in
// conversions across the two groups (addEventsConversions) for admission's equivalent
// resources; the events.orch.io Store converts with these functions directly.
import type { ApiObject } from '../../meta/index.js';
import type { Conversions } from '../../registry/conversion.js';

type Json = Record<string, unknown>;

export const eventsV1ApiVersion = 'events.orch.io/v1';

/** events.orch.io/v1 field → core v1 field, for the fields that are renamed. */
const renamed: readonly (readonly [string, string])[] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

/** Fields both versions spell alike. */
const same = ['eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'];

const copy = (from: Json, to: Json, pairs: readonly (readonly [string, string])[]): void => {
  for (const [a, b] of pairs) if (from[a] !== undefined) to[b] = structuredClone(from[a]);
};

/** An events.orch.io/v1 Event as the core v1 Event it is stored as (a new object). */
export function eventsV1ToCore(obj: ApiObject): ApiObject {
  const src = obj as Json;
  const out: Json = { apiVersion: 'v1', kind: 'Event', metadata: structuredClone(obj.metadata) };
  copy(src, out, renamed);
  copy(
    src,
    out,
    same.map((f) => [f, f] as const)
  );
  return out as ApiObject;
}

/** A core v1 Event (as stored) as events.orch.io/v1 sees it (a new object; the input is kept). */
export function coreToEventsV1(obj: Json): ApiObject {
  const out: Json = {
    apiVersion: eventsV1ApiVersion,
    kind: 'Event',
    metadata: structuredClone(obj['metadata'] ?? {}),
  };
  copy(
    obj,
    out,
    renamed.map(([a, b]) => [b, a] as const)
  );
  copy(
    obj,
    out,
    same.map((f) => [f, f] as const)
  );
  return out as ApiObject;
}

/** events.orch.io/v1 field selector names → the stored (core) ones. */
const selectorFields: Record<string, string> = {
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
};

/**
 * A field selector of events.orch.io/v1 in the stored names (upstream converts field labels
 * between versions the same way). Terms are `key=value`, `key==value` or `key!=value`.
 */
export function eventsV1FieldSelectorToCore(selector: string | undefined): string | undefined {
  if (!selector) return selector;
  return selector
    .split(/(?<!\\),/)
    .map((term) => {
      const m = /^(\s*)([^=!\s]+)(\s*(?:==|!=|=).*)$/s.exec(term);
      if (!m) return term;
      const [, pad = '', key = '', rest = ''] = m;
      return `${pad}${selectorFields[key] ?? key}${rest}`;
    })
    .join(',');
}

/**
 * Registers the conversions between core v1 and events.orch.io/v1 Events, one collection under
 * two groups (upstream: one storage prefix, so equivalent resources for admission).
 */
export function addEventsConversions(conversions: Conversions): void {
  const core = { group: '', version: 'v1' };
  const v1 = { group: 'events.orch.io', version: 'v1' };
  conversions.registerAcrossGroups('Event', v1, core, (o) => eventsV1ToCore(o as ApiObject));
  conversions.registerAcrossGroups('Event', core, v1, (o) => coreToEventsV1(o));
}
