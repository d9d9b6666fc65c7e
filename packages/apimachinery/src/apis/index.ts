// The built-in API groups, and the lists the server is built from, each the concatenation of
// what the groups bring: resources, computed defaults, Table printers, conversions. Adding a
// kind is its proto message, its group's folder here (resources, and defaults, printers or
// conversions when it needs them) and, when it needs more than the generic rules, a strategy in
// the gateway's registry/<group>/.
import { Conversions } from '../registry/conversion.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';
import { admissionregistration } from './admissionregistration/index.js';
import { apiextensions } from './apiextensions/index.js';
import { apiregistration } from './apiregistration/index.js';
import { apps } from './apps/index.js';
import { authentication } from './authentication/index.js';
import { authorization } from './authorization/index.js';
import { autoscaling } from './autoscaling/index.js';
import { batch } from './batch/index.js';
import { certificates } from './certificates/index.js';
import { coordination } from './coordination/index.js';
import { core } from './core/index.js';
import { discovery } from './discovery/index.js';
import { events } from './events/index.js';
import { flowcontrol } from './flowcontrol/index.js';
import { networking } from './networking/index.js';
import { node } from './node/index.js';
import { policy } from './policy/index.js';
import { rbac } from './rbac/index.js';
import { scheduling } from './scheduling/index.js';
import { storage } from './storage/index.js';
import type { APIGroupDefinition, Defaulters, TablePrinter } from './types.js';

export type { APIGroupDefinition, Defaulter, Defaulters, TablePrinter } from './types.js';
export {
  coreToEventsV1,
  eventsV1ApiVersion,
  eventsV1FieldSelectorToCore,
  eventsV1ToCore,
} from './events/index.js';
export {
  admissionregistration,
  apiextensions,
  apiregistration,
  apps,
  authentication,
  authorization,
  autoscaling,
  batch,
  certificates,
  coordination,
  core,
  discovery,
  events,
  flowcontrol,
  networking,
  node,
  policy,
  rbac,
  scheduling,
  storage,
};

/**
 * The built-in groups, core first, in the order discovery lists them (/apis, which clients
 * such as kubectl search in that order when a resource name is in two groups).
 */
export const builtinAPIGroups: readonly APIGroupDefinition[] = [
  core,
  apps,
  coordination,
  events,
  certificates,
  rbac,
  admissionregistration,
  authorization,
  authentication,
  batch,
  autoscaling,
  policy,
  networking,
  discovery,
  storage,
  scheduling,
  node,
  flowcontrol,
  apiextensions,
  apiregistration,
];

/** The built-in kinds served by the gateway, group after group. */
export const builtinResources: readonly ResourceDefinition[] = builtinAPIGroups.flatMap(
  (g) => g.resources
);

/** Entries keyed by name from every group; a name two groups bring is an error. */
function unique<T>(what: string, entries: Iterable<readonly [string, T]>): Map<string, T> {
  const out = new Map<string, T>();
  for (const [name, value] of entries) {
    if (out.has(name)) throw new Error(`${what} ${name} defined twice`);
    out.set(name, value);
  }
  return out;
}

/** The computed defaults of the built-in messages, by message full name. */
export const builtinDefaulters: Defaulters = unique(
  'defaulter',
  builtinAPIGroups.flatMap((g) => g.defaulters ?? [])
);

/** The named printers of the built-in kinds' Table columns. */
export const builtinTablePrinters: Readonly<Record<string, TablePrinter>> = Object.fromEntries(
  unique(
    'table printer',
    builtinAPIGroups.flatMap((g) => Object.entries(g.tablePrinters ?? {}))
  )
);

/**
 * The conversions of the built-in kinds served in more than one version from one collection
 * (upstream's legacyscheme.Scheme with each group's RegisterConversions).
 */
export const builtinConversions: Conversions = new Conversions();
for (const g of builtinAPIGroups) g.addConversions?.(builtinConversions);
