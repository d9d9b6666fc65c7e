// calculateNamesAndConditions (upstream NamingConditionController) as a table: which requested
// names are accepted against the accepted names of the other CRDs of the group, and the
// NamesAccepted and Established conditions that follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
} from '@orch/apimachinery/apiextensions';
import { calculateNamesAndConditions } from './naming-controller.js';

const names = (
  plural: string,
  kind: string,
  more: Partial<CustomResourceDefinitionNames> = {}
): CustomResourceDefinitionNames => ({
  plural,
  singular: plural.replace(/s$/, ''),
  kind,
  listKind: `${kind}List`,
  ...more,
});

function crd(
  requested: CustomResourceDefinitionNames,
  accepted?: CustomResourceDefinitionNames,
  group = 'example.com'
): CustomResourceDefinition {
  return {
    metadata: { name: `${requested.plural}.${group}` },
    spec: { group, names: requested, scope: 'Namespaced', versions: [] },
    status: accepted ? { acceptedNames: accepted } : {},
  };
}

const other = crd(
  names('widgets', 'Widget', { shortNames: ['wd'] }),
  names('widgets', 'Widget', { shortNames: ['wd'] })
);

const rows: {
  name: string;
  crd: CustomResourceDefinition;
  others: CustomResourceDefinition[];
  accepted: Partial<CustomResourceDefinitionNames>;
  reason: string;
  message: string;
}[] = [
  {
    name: 'no other CRD: every name accepted',
    crd: crd(names('gadgets', 'Gadget', { shortNames: ['gd'], categories: ['all'] })),
    others: [],
    accepted: names('gadgets', 'Gadget', { shortNames: ['gd'], categories: ['all'] }),
    reason: 'NoConflicts',
    message: 'no conflicts found',
  },
  {
    name: 'another group may use the same names',
    crd: crd(names('widgets', 'Widget')),
    others: [crd(names('widgets', 'Widget'), names('widgets', 'Widget'), 'other.com')],
    accepted: names('widgets', 'Widget'),
    reason: 'NoConflicts',
    message: 'no conflicts found',
  },
  {
    name: 'plural and singular taken: the last conflict names the reason',
    crd: crd(names('widgets', 'Gizmo')),
    others: [other],
    accepted: { plural: '', kind: 'Gizmo', listKind: 'GizmoList' },
    reason: 'SingularConflict',
    message: '"widget" is already in use',
  },
  {
    name: 'PluralConflict alone',
    crd: crd(names('wd', 'Gizmo', { singular: 'gizmo' })),
    others: [other],
    accepted: { plural: '', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
    reason: 'PluralConflict',
    message: '"wd" is already in use',
  },
  {
    name: 'ShortNamesConflict: all requested short names or none',
    crd: crd(names('gizmos', 'Gizmo', { shortNames: ['gz', 'wd', 'widgets'] })),
    others: [other],
    accepted: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
    reason: 'ShortNamesConflict',
    message: '["wd" is already in use, "widgets" is already in use]',
  },
  {
    name: 'KindConflict',
    crd: crd(names('gizmos', 'Widget', { listKind: 'GizmoList' })),
    others: [other],
    accepted: { plural: 'gizmos', singular: 'gizmo', kind: '', listKind: 'GizmoList' },
    reason: 'KindConflict',
    message: '"Widget" is already in use',
  },
  {
    name: 'ListKindConflict',
    crd: crd(names('gizmos', 'Gizmo', { listKind: 'WidgetList' })),
    others: [other],
    accepted: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
    reason: 'ListKindConflict',
    message: '"WidgetList" is already in use',
  },
  {
    name: 'a name the CRD itself accepted before stays its own',
    crd: crd(
      names('widgets', 'Widget', { shortNames: ['wd', 'w'] }),
      names('widgets', 'Widget', { shortNames: ['wd'] })
    ),
    others: [],
    accepted: names('widgets', 'Widget', { shortNames: ['wd', 'w'] }),
    reason: 'NoConflicts',
    message: 'no conflicts found',
  },
];

for (const r of rows)
  test(`calculateNamesAndConditions: ${r.name}`, () => {
    const out = calculateNamesAndConditions(r.crd, [r.crd, ...r.others]);
    assert.deepEqual(out.names, r.accepted);
    assert.deepEqual(
      [out.namesAccepted.status, out.namesAccepted.reason, out.namesAccepted.message],
      [r.reason === 'NoConflicts' ? 'True' : 'False', r.reason, r.message]
    );
    assert.deepEqual(
      [out.established.status, out.established.reason],
      r.reason === 'NoConflicts' ? ['False', 'Installing'] : ['False', 'NotAccepted']
    );
  });

test('calculateNamesAndConditions: an Established CRD stays Established whatever the names', () => {
  const c = crd(names('gizmos', 'Widget', { listKind: 'GizmoList' }), names('gizmos', 'Gizmo'));
  c.status!.conditions = [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted' }];
  const out = calculateNamesAndConditions(c, [c, other]);
  assert.equal(out.namesAccepted.reason, 'KindConflict');
  assert.deepEqual(
    [out.established.status, out.established.reason],
    ['True', 'InitialNamesAccepted']
  );
  assert.equal(out.names.kind, 'Gizmo', 'the kind accepted before is kept');
});
