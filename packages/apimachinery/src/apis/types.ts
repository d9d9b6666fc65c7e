// What one API group brings (upstream's pkg/apis/<group> with the resource names of its
// pkg/registry/<group>): the resources it serves, the computed defaults of its messages, the
// conversions between its served versions and the named printers of its Table columns. The
// built-in lists (./index.ts) are these, group after group.
import type { Conversions } from '../registry/conversion.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';
import { allVerbs } from '../registry/resource-definition.js';

type Json = Record<string, unknown>;

/** Sets the computed defaults of one object of a message, in place. */
export type Defaulter = (obj: Json) => void;

/** Defaulters by message full name (orch.api.core.v1.Container). */
export type Defaulters = ReadonlyMap<string, Defaulter>;

/** A named Table cell printer ("@name" in a kind's table_columns), given the object and now in ms. */
export type TablePrinter = (obj: Json, now: number) => unknown;

export interface APIGroupDefinition {
  /** The group name ('' for core). */
  readonly name: string;
  /** Its resources, each in each version it serves; discovery lists them in this order. */
  readonly resources: readonly ResourceDefinition[];
  /** Computed defaults by message full name (upstream's SetDefaults_* in pkg/apis/<group>/<version>/defaults.go). */
  readonly defaulters?: readonly (readonly [string, Defaulter])[];
  /** The printers its kinds' Table columns name (upstream's pkg/printers/internalversion). */
  readonly tablePrinters?: Readonly<Record<string, TablePrinter>>;
  /** Registers the conversions between the versions it serves from one stored collection. */
  readonly addConversions?: (conversions: Conversions) => void;
}

/** What a resource definition leaves to the helpers below. */
export type ResourceFields = Omit<ResourceDefinition, 'group' | 'version' | 'verbs' | 'listKind'>;

/** A stored resource of `group`/`version` with every verb and the list kind `<Kind>List`. */
export const resource = (
  group: string,
  version: string,
  def: ResourceFields
): ResourceDefinition => ({
  group,
  version,
  verbs: allVerbs,
  listKind: `${def.kind}List`,
  ...def,
});
