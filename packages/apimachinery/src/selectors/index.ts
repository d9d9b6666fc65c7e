export type { FieldGetter, FieldRequirement, FieldSelectorOperator } from './field-selector.js';
export { escapeFieldValue, FieldSelector, parseFieldSelector } from './field-selector.js';
export type {
  LabelRequirement,
  LabelSelectorObject,
  LabelSelectorObjectRequirement,
  LabelSelectorOperator,
} from './label-selector.js';
export {
  LabelSelector,
  labelSelectorFromLabelSelectorObject,
  newLabelRequirement,
  parseLabelSelector,
} from './label-selector.js';
export { fieldValue } from './object-fields.js';
export { SelectorParseError } from './selector-parse-error.js';
