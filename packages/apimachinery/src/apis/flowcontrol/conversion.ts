// FlowSchema and PriorityLevelConfiguration between flowcontrol.apiserver.orch.io v1beta3 and v1
// (upstream pkg/apis/flowcontrol/v1beta3 conversion.go and defaults.go). The two versions have
// the same fields; v1beta3's spec.limited.nominalConcurrencyShares is a plain int32 whose zero
// is defaulted to 30, so a v1 object whose value is 0 is answered in v1beta3 with the
// annotation that keeps the zero, and the annotation is dropped on the way back to v1.
import type { Conversions } from '../../registry/conversion.js';
import type { Defaulter } from '../types.js';

type Json = Record<string, unknown>;

/** v1beta3.PriorityLevelPreserveZeroConcurrencySharesKey. */
export const preserveZeroConcurrencySharesAnnotation =
  'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';
/** PriorityLevelConfigurationDefaultNominalConcurrencyShares of v1beta3. */
const defaultNominalConcurrencyShares = 30;

const obj = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;

const limitedOf = (plc: Json): Json | undefined => obj(obj(plc['spec'])?.['limited']);

/** Every field as it is (the registry sets apiVersion and kind); a copy, the input untouched. */
const sameFields = (o: Json): Json => structuredClone(o);

/** Convert_v1beta3_PriorityLevelConfiguration_To_flowcontrol: the annotation dropped. */
function priorityLevelToV1(plc: Json): Json {
  const out = structuredClone(plc);
  const meta = obj(out['metadata']);
  const annotations = obj(meta?.['annotations']);
  if (meta && annotations && preserveZeroConcurrencySharesAnnotation in annotations) {
    delete annotations[preserveZeroConcurrencySharesAnnotation];
    if (Object.keys(annotations).length === 0) delete meta['annotations'];
  }
  return out;
}

/** Convert_flowcontrol_PriorityLevelConfiguration_To_v1beta3: a zero kept by the annotation. */
function priorityLevelToV1beta3(plc: Json): Json {
  const out = structuredClone(plc);
  const limited = limitedOf(out);
  if (limited === undefined) return out;
  const shares = limited['nominalConcurrencyShares'];
  if (shares !== undefined && shares !== null && shares !== 0) return out;
  limited['nominalConcurrencyShares'] = 0;
  const meta = obj(out['metadata']) ?? (out['metadata'] = {});
  const annotations = obj((meta as Json)['annotations']) ?? ((meta as Json)['annotations'] = {});
  (annotations as Json)[preserveZeroConcurrencySharesAnnotation] ??= '';
  return out;
}

/**
 * SetDefaults_PriorityLevelConfiguration of v1beta3: a zero nominalConcurrencyShares is 30
 * unless the annotation says the zero was meant.
 */
export const defaultV1beta3PriorityLevel: Defaulter = (plc) => {
  const limited = limitedOf(plc);
  if (limited === undefined) return;
  const annotations = obj(obj(plc['metadata'])?.['annotations']);
  const shares = limited['nominalConcurrencyShares'];
  if (annotations && preserveZeroConcurrencySharesAnnotation in annotations) return;
  if (shares === undefined || shares === null || shares === 0)
    limited['nominalConcurrencyShares'] = defaultNominalConcurrencyShares;
};

export function addFlowcontrolConversions(conversions: Conversions): void {
  const group = 'flowcontrol.apiserver.orch.io';
  const flowSchema = { group, kind: 'FlowSchema' };
  conversions.register({ ...flowSchema, from: 'v1beta3', to: 'v1' }, sameFields);
  conversions.register({ ...flowSchema, from: 'v1', to: 'v1beta3' }, sameFields);
  const priorityLevel = { group, kind: 'PriorityLevelConfiguration' };
  conversions.register({ ...priorityLevel, from: 'v1beta3', to: 'v1' }, priorityLevelToV1);
  conversions.register({ ...priorityLevel, from: 'v1', to: 'v1beta3' }, priorityLevelToV1beta3);
}
