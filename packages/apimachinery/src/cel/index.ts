// CEL for admission (matchConditions, ValidatingAdmissionPolicy): compilation, evaluation with
// cost limits, the Kubernetes libraries, and the field checks of expressions in objects.
export type {
  CelObjectType,
  CelSizeModel,
  CelVariable,
  CompiledExpression,
  CompileOptions,
  CompileResult,
} from './compile-expression.js';
export {
  celErrorMessage,
  compileExpression,
  fromCelValue,
  lazyMap,
  toCelValue,
} from './compile-expression.js';
export {
  CelCostError,
  COMPARISON_COST,
  CostBudget,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  PER_CALL_LIMIT,
  PER_CALL_LIMIT_MESSAGE,
  RUNTIME_BUDGET_MESSAGE,
  RUNTIME_CEL_COST_BUDGET,
  SELECT_AND_IDENT_COST,
  STATIC_ESTIMATED_COST_LIMIT,
  STRING_TRAVERSAL_COST_FACTOR,
} from './cost.js';
export { CelUrl, parseRequestUri, registerKubernetesLibrary } from './kubernetes-library.js';
export type {
  AdmissionExpressionContext,
  AdmissionExpressionKind,
} from './validate-expressions.js';
export {
  ADMISSION_REQUEST_SCHEMA,
  checkAdmissionExpression,
  policyVariables,
  WEBHOOK_MATCH_CONDITION_VARIABLES,
} from './validate-expressions.js';
export { celReservedWords } from './reserved-words.js';
export type { CelListType } from './typed-lists.js';
export {
  celEqual,
  celTypedListAdd,
  listTypeOf,
  SET_OF_NON_SCALARS_MESSAGE,
  withListType,
} from './typed-lists.js';
