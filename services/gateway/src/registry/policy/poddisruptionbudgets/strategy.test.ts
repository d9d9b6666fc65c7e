// The PodDisruptionBudgets' validation as table tests: each row a realistic object (from
// @orch/apimachinery's realistic objects) with one change, and the field errors upstream's
// validation answers for it (field path, type, message); the strategies are the provider's.
import { realisticObjects } from '@orch/apimachinery/testdata';
import type { ApiObject } from '@orch/apimachinery/meta';
import { policyProvider } from '../rest-storage-provider.js';
import { testStrategyRows } from '../../strategy-test-kit.js';
import type { StrategyRow } from '../../strategy-test-kit.js';

const obj = (key: string, change: (o: any) => void = () => {}): ApiObject => {
  const o: any = structuredClone(realisticObjects[key]);
  o.metadata.uid ??= 'uid-1';
  change(o);
  return o as ApiObject;
};

const pdb = 'policy/v1/PodDisruptionBudget';

const rows: StrategyRow[] = [
  ['valid PDB', 'policy/poddisruptionbudgets', obj(pdb), []],
  // PDB
  [
    'PDB: minAvailable and maxUnavailable both set',
    'policy/poddisruptionbudgets',
    obj(pdb, (o) => (o.spec.maxUnavailable = 1)),
    ['spec: FieldValueInvalid: minAvailable and maxUnavailable cannot be both set'],
  ],
  [
    'PDB: a percentage that is not one, an unknown eviction policy',
    'policy/poddisruptionbudgets',
    obj(pdb, (o) => {
      o.spec.minAvailable = 'half';
      o.spec.unhealthyPodEvictionPolicy = 'Never';
    }),
    [
      "spec.minAvailable: FieldValueInvalid: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      'spec.unhealthyPodEvictionPolicy: FieldValueNotSupported: supported values: "AlwaysAllow", "IfHealthyBudget"',
    ],
  ],
  [
    'PDB: the spec is mutable',
    'policy/poddisruptionbudgets',
    obj(pdb, (o) => (o.spec.minAvailable = '50%')),
    [],
    obj(pdb),
  ],
];

testStrategyRows(policyProvider, rows);
