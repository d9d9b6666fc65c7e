// Events: the strategies of core v1 and events.orch.io/v1, both validating the stored (core v1)
// form as upstream validates its internal Event (pkg/apis/core/validation/events.go:
// ValidateEventCreate, ValidateEventUpdate, legacyValidateEvent, validateV1EventSeries). Core v1
// writes get the legacy rules only (older clients keep working); events.orch.io/v1 writes also
// the strict ones: eventTime required, type Normal or Warning, the deprecated fields unset, and
// on update nearly everything immutable. Field paths name the fields of the version written:
// upstream names some in their core spelling even for events.k8s.io/v1 (message,
// involvedObject, source, firstTimestamp) and the event's namespace `namespace`, which are no
// fields of what the client sent; here they are the served ones (note, regarding,
// deprecatedSource, ..., metadata.namespace), so that a client can find what it must change.
import { fieldInvalid, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import {
  fieldImmutableErrorMsg,
  isDNS1123Subdomain,
  isQualifiedName,
} from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Event } from '@orch/api/core/v1';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';

export const reportingInstanceLengthLimit = 128;
export const actionLengthLimit = 128;
export const reasonLengthLimit = 128;
export const noteLengthLimit = 1024;

/** Which API the write came through: core `v1` or `events.orch.io/v1`. */
export type EventRequestVersion = 'v1' | 'events/v1';

/** The core v1 event being validated: the fields it requires are what validation checks. */
type CoreEvent = ApiObject & Event;

const ev = (o: ApiObject): CoreEvent => o as CoreEvent;

/** The events.orch.io/v1 name of a core field (upstream's Convert_core_Event_To_v1_Event). */
const v1Names: Readonly<Record<string, string>> = {
  involvedObject: 'regarding',
  message: 'note',
  reportingComponent: 'reportingController',
  source: 'deprecatedSource',
  firstTimestamp: 'deprecatedFirstTimestamp',
  lastTimestamp: 'deprecatedLastTimestamp',
  count: 'deprecatedCount',
};

/** The path of a core field as the request's version spells it. */
const pathOf = (version: EventRequestVersion, field: string, ...rest: string[]) =>
  newPath(version === 'v1' ? field : (v1Names[field] ?? field), ...rest);
const len = (s: string | undefined): number => (s ?? '').length;

/** legacyValidateEvent: what every Event must satisfy, whichever API wrote it. */
export function legacyValidateEvent(obj: ApiObject, version: EventRequestVersion): FieldError[] {
  const e = ev(obj);
  const errs: FieldError[] = [];
  const controller = version === 'v1' ? 'reportingComponent' : 'reportingController';
  const ns = e.metadata.namespace ?? '';
  const involvedNs = e.involvedObject?.namespace ?? '';
  const nsPath = pathOf(version, 'involvedObject', 'namespace');
  if (!e.eventTime) {
    // Older events: the event's namespace and the involved object's agree.
    if (involvedNs === '') {
      if (ns !== '' && ns !== 'default')
        errs.push(fieldInvalid(nsPath, involvedNs, 'does not match event.namespace'));
    } else if (ns !== involvedNs) {
      errs.push(fieldInvalid(nsPath, involvedNs, 'does not match event.namespace'));
    }
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== 'orch-system')
      errs.push(fieldInvalid(nsPath, involvedNs, 'does not match event.namespace'));
    if (!e.reportingComponent) errs.push(fieldRequired(newPath(controller), ''));
    for (const msg of isQualifiedName(e.reportingComponent ?? ''))
      errs.push(fieldInvalid(newPath(controller), e.reportingComponent ?? '', msg));
    if (!e.reportingInstance) errs.push(fieldRequired(newPath('reportingInstance'), ''));
    if (len(e.reportingInstance) > reportingInstanceLengthLimit)
      errs.push(
        fieldInvalid(
          newPath('reportingInstance'),
          '',
          `can have at most ${reportingInstanceLengthLimit} characters`
        )
      );
    if (!e.action) errs.push(fieldRequired(newPath('action'), ''));
    if (len(e.action) > actionLengthLimit)
      errs.push(
        fieldInvalid(newPath('action'), '', `can have at most ${actionLengthLimit} characters`)
      );
    if (!e.reason) errs.push(fieldRequired(newPath('reason'), ''));
    if (len(e.reason) > reasonLengthLimit)
      errs.push(
        fieldInvalid(newPath('reason'), '', `can have at most ${reasonLengthLimit} characters`)
      );
    if (len(e.message) > noteLengthLimit)
      errs.push(
        fieldInvalid(
          pathOf(version, 'message'),
          '',
          `can have at most ${noteLengthLimit} characters`
        )
      );
  }
  for (const msg of isDNS1123Subdomain(ns))
    errs.push(fieldInvalid(newPath('metadata', 'namespace'), ns, msg));
  return errs;
}

/** validateV1EventSeries. */
function validateSeries(e: CoreEvent): FieldError[] {
  if (!e.series) return [];
  const errs: FieldError[] = [];
  if ((e.series.count ?? 0) < 2)
    errs.push(fieldInvalid('series.count', '', 'should be at least 2'));
  if (!e.series.lastObservedTime) errs.push(fieldRequired('series.lastObservedTime', ''));
  return errs;
}

/** ValidateEventCreate. */
export function validateEventCreate(obj: ApiObject, version: EventRequestVersion): FieldError[] {
  const errs = legacyValidateEvent(obj, version);
  if (version === 'v1') return errs; // no more, for older clients
  const e = ev(obj);
  errs.push(...validateSeries(e));
  if (!e.eventTime) errs.push(fieldRequired(newPath('eventTime'), ''));
  if (e.type !== 'Normal' && e.type !== 'Warning')
    errs.push(fieldInvalid(newPath('type'), '', `has invalid value: ${e.type ?? ''}`));
  if (e.firstTimestamp)
    errs.push(fieldInvalid(newPath('deprecatedFirstTimestamp'), '', 'needs to be unset'));
  if (e.lastTimestamp)
    errs.push(fieldInvalid(newPath('deprecatedLastTimestamp'), '', 'needs to be unset'));
  if (e.count) errs.push(fieldInvalid(newPath('deprecatedCount'), '', 'needs to be unset'));
  if (e.source?.component || e.source?.host)
    errs.push(fieldInvalid(newPath('deprecatedSource'), '', 'needs to be unset'));
  return errs;
}

/** The fields an events.orch.io/v1 update may not change (core names). */
const immutable: readonly (keyof CoreEvent)[] = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** ValidateEventUpdate (ObjectMeta's update rules are the Store's). */
export function validateEventUpdate(
  obj: ApiObject,
  old: ApiObject,
  version: EventRequestVersion
): FieldError[] {
  const errs = legacyValidateEvent(obj, version);
  if (version === 'v1') return errs;
  const e = ev(obj);
  const o = ev(old);
  if (!same(e.series, o.series)) errs.push(...validateSeries(e));
  for (const field of immutable) {
    if (!same(e[field], o[field]))
      errs.push(fieldInvalid(pathOf(version, field), e[field], fieldImmutableErrorMsg));
  }
  return errs;
}

const base = defaultStrategy({ hasStatus: false });

/** Core v1 Events (the legacy rules). */
export const coreEventStrategy: Strategy = {
  ...base,
  validate: (obj) => validateEventCreate(obj, 'v1'),
  validateUpdate: (obj, old) => validateEventUpdate(obj, old, 'v1'),
};

/** events.orch.io/v1 Events: given the stored (core) form by the EventsV1Store. */
export const eventsV1Strategy: Strategy = {
  ...base,
  validate: (obj) => validateEventCreate(obj, 'events/v1'),
  validateUpdate: (obj, old) => validateEventUpdate(obj, old, 'events/v1'),
};
