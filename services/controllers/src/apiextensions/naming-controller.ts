// The naming controller (k8s.io/apiextensions-apiserver pkg/controller/status
// NamingConditionController): status.acceptedNames takes each requested name (plural,
// singular, shortNames, kind, listKind) that no other CRD of the same group has accepted, and
// the NamesAccepted condition says which conflicted (PluralConflict, SingularConflict,
// ShortNamesConflict, KindConflict, ListKindConflict) or NoConflicts. Established starts False
// (NotAccepted, or Installing once the names are accepted); the establishing controller sets it.
import { findCRDCondition, setCRDCondition } from '@orch/apimachinery/apiextensions';
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
} from '@orch/apimachinery/apiextensions';
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import { sameJson } from '@orch/apimachinery/meta';
import type { RestClient } from '@orch/apimachinery/client';
import type { Logger } from '@orch/component-base/logs';
import { CrdController, statusPath } from './crd-controller-base.js';
import type { SyncResult } from './crd-controller-base.js';

const rv = (c: CustomResourceDefinition): number => Number(c.metadata.resourceVersion ?? 0);

/** equalToAcceptedOrFresh: the error message when the name is taken, else undefined. */
function takenMessage(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `"${requested}" is already in use`;
}

/**
 * calculateNamesAndConditions: the accepted names and the NamesAccepted and Established
 * conditions of `crd`, given every CRD of the cluster (the latest copy of each).
 */
export function calculateNamesAndConditions(
  crd: CustomResourceDefinition,
  all: readonly CustomResourceDefinition[]
): {
  names: CustomResourceDefinitionNames;
  namesAccepted: CustomResourceDefinitionCondition;
  established: CustomResourceDefinitionCondition;
} {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of all) {
    if (other.spec.group !== crd.spec.group) continue;
    const a = other.status?.acceptedNames;
    if (!a) continue;
    for (const n of [a.plural, a.singular ?? '', ...(a.shortNames ?? [])]) resources.add(n);
    kinds.add(a.kind);
    kinds.add(a.listKind ?? '');
  }
  const requested = crd.spec.names;
  const accepted: CustomResourceDefinitionNames = crd.status?.acceptedNames ?? {
    plural: '',
    kind: '',
  };
  const names: CustomResourceDefinitionNames = structuredClone(accepted);
  let cond: CustomResourceDefinitionCondition = { type: 'NamesAccepted', status: 'Unknown' };
  const conflict = (reason: string, message: string): void => {
    cond = { type: 'NamesAccepted', status: 'False', reason, message };
  };
  let m = takenMessage(requested.plural, accepted.plural, resources);
  if (m) conflict('PluralConflict', m);
  else names.plural = requested.plural;
  m = takenMessage(requested.singular ?? '', accepted.singular ?? '', resources);
  if (m) conflict('SingularConflict', m);
  else names.singular = requested.singular ?? '';
  if (!sameJson(requested.shortNames ?? [], accepted.shortNames ?? [])) {
    const mine = new Set(accepted.shortNames ?? []);
    const errs = (requested.shortNames ?? [])
      .filter((s) => !mine.has(s))
      .map((s) => takenMessage(s, '', resources))
      .filter((e): e is string => e !== undefined);
    if (errs.length > 0)
      conflict('ShortNamesConflict', errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
    else names.shortNames = requested.shortNames ?? [];
  }
  m = takenMessage(requested.kind, accepted.kind, kinds);
  if (m) conflict('KindConflict', m);
  else names.kind = requested.kind;
  m = takenMessage(requested.listKind ?? '', accepted.listKind ?? '', kinds);
  if (m) conflict('ListKindConflict', m);
  else names.listKind = requested.listKind ?? '';
  if (requested.categories) names.categories = requested.categories;
  else delete names.categories;
  if (cond.status === 'Unknown')
    cond = {
      type: 'NamesAccepted',
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    };
  let established: CustomResourceDefinitionCondition = findCRDCondition(
    crd.status,
    'Established'
  ) ?? {
    type: 'Established',
    status: 'False',
    reason: 'NotAccepted',
    message: 'not all names are accepted',
  };
  if (established.status !== 'True' && cond.status === 'True')
    established = {
      type: 'Established',
      status: 'False',
      reason: 'Installing',
      message: 'the initial names have been accepted',
    };
  return { names, namesAccepted: cond, established };
}

const equivalent = (
  a: CustomResourceDefinitionCondition,
  b: CustomResourceDefinitionCondition | undefined
): boolean =>
  b !== undefined && a.status === b.status && a.reason === b.reason && a.message === b.message;

export class NamingController extends CrdController {
  /** The status this controller last wrote, newer than the informer's copy until it catches up (upstream's mutation cache). */
  readonly #written = new Map<string, CustomResourceDefinition>();

  constructor(client: RestClient, log: Logger) {
    super(client, log, 'crd-naming');
    this.informer.addEventHandler({
      onAdd: (o) => this.enqueue(String((o['metadata'] as { name: string }).name)),
      onUpdate: (_old, o) => this.enqueue(String((o['metadata'] as { name: string }).name)),
      // A deleted CRD frees its names: the others of its group are reconsidered.
      onDelete: (o) => {
        const crd = o as CustomResourceDefinition; // the decoded JSON of a stored CRD
        this.#written.delete(crd.metadata.name);
        this.#requeueGroup(crd.spec.group, crd.metadata.name);
      },
    });
  }

  #latest(crd: CustomResourceDefinition): CustomResourceDefinition {
    const w = this.#written.get(crd.metadata.name);
    if (w && rv(w) > rv(crd)) return w;
    this.#written.delete(crd.metadata.name);
    return crd;
  }

  #requeueGroup(group: string, except: string): void {
    for (const c of this.crds())
      if (c.spec.group === group && c.metadata.name !== except) this.enqueue(c.metadata.name);
  }

  protected async sync(name: string): Promise<SyncResult> {
    const found = this.crd(name);
    if (!found) return 'done';
    const crd = this.#latest(found);
    if (sameJson(crd.spec.names, crd.status?.acceptedNames)) return 'done';
    const all = this.crds().map((c) => this.#latest(c));
    const { names, namesAccepted, established } = calculateNamesAndConditions(crd, all);
    if (
      sameJson(crd.status?.acceptedNames, names) &&
      equivalent(namesAccepted, findCRDCondition(crd.status, 'NamesAccepted'))
    )
      return 'done';
    const next = structuredClone(crd);
    const status = (next.status ??= {});
    status.acceptedNames = names;
    setCRDCondition(status, namesAccepted);
    setCRDCondition(status, established);
    let updated: CustomResourceDefinition;
    try {
      updated = (await this.client.request(
        'PUT',
        statusPath(name),
        next
      )) as CustomResourceDefinition; // the API answers the stored CRD
    } catch (err) {
      // Deleted or changed meanwhile: the informer brings it back.
      if (isNotFound(err) || isConflict(err)) return 'done';
      throw err;
    }
    this.#written.set(name, updated);
    this.log.info('names', { name, reason: namesAccepted.reason });
    // Names may have been released: the others of the group are reconsidered.
    this.#requeueGroup(crd.spec.group, name);
    return 'done';
  }
}
