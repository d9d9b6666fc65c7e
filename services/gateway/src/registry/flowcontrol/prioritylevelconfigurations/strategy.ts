// PriorityLevelConfigurations (k8s pkg/registry/flowcontrol/prioritylevelconfiguration/
// strategy.go, pkg/apis/flowcontrol/validation ValidatePriorityLevelConfiguration): stored and
// validated, not enforced. Exempt (only the level named `exempt`) or Limited with its
// shares, lendable and borrowing percentages, and a Reject or Queue limit response whose
// queuing passes the shuffle-sharding bounds. Status through the status subresource.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { isObject, obj } from '../../unstructured.js';
import type { Json } from '../../unstructured.js';

export const maxQueues = 10 * 1000 * 1000;
/** shufflesharding.MaxHashBits. */
export const maxHashBits = 60;

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** shufflesharding.RequiredEntropyBits. */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

function validatePercent(v: unknown, path: FieldPath): FieldError[] {
  return typeof v === 'number' && (v < 0 || v > 100)
    ? [fieldInvalid(path, v, 'must be between 0 and 100, inclusive')]
    : [];
}

function validateQueuing(q: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const queues = num(q['queues']);
  const handSize = num(q['handSize']);
  const limit = num(q['queueLengthLimit']);
  if (limit <= 0)
    errs.push(fieldInvalid(path.child('queueLengthLimit'), limit, 'must be positive'));
  if (queues <= 0) errs.push(fieldInvalid(path.child('queues'), queues, 'must be positive'));
  else if (queues > maxQueues)
    errs.push(fieldInvalid(path.child('queues'), queues, `must not be greater than ${maxQueues}`));
  if (handSize <= 0) errs.push(fieldInvalid(path.child('handSize'), handSize, 'must be positive'));
  else if (handSize > queues)
    errs.push(
      fieldInvalid(
        path.child('handSize'),
        handSize,
        `should not be greater than queues (${queues})`
      )
    );
  else if (requiredEntropyBits(queues, handSize) > maxHashBits)
    errs.push(
      fieldInvalid(
        path.child('handSize'),
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${maxHashBits}`
      )
    );
  return errs;
}

function validateLimited(l: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const shares = num(l['nominalConcurrencyShares']);
  if (shares < 0)
    errs.push(
      fieldInvalid(path.child('nominalConcurrencyShares'), shares, 'must be a non-negative integer')
    );
  const lr = obj(l['limitResponse']);
  const lp = path.child('limitResponse');
  switch (lr['type']) {
    case 'Reject':
      if (isObject(lr['queuing']))
        errs.push(
          fieldForbidden(
            lp.child('queuing'),
            'must be nil if limited.limitResponse.type is not Limited'
          )
        );
      break;
    case 'Queue':
      if (!isObject(lr['queuing']))
        errs.push(
          fieldRequired(
            lp.child('queuing'),
            'must not be empty if limited.limitResponse.type is Limited'
          )
        );
      else errs.push(...validateQueuing(lr['queuing'], lp.child('queuing')));
      break;
    default:
      errs.push(fieldNotSupported(lp.child('type'), lr['type'] ?? '', ['Queue', 'Reject']));
  }
  errs.push(...validatePercent(l['lendablePercent'], path.child('lendablePercent')));
  const borrowing = l['borrowingLimitPercent'];
  if (typeof borrowing === 'number' && borrowing < 0)
    errs.push(
      fieldInvalid(
        path.child('borrowingLimitPercent'),
        borrowing,
        'if specified, must be a non-negative integer'
      )
    );
  return errs;
}

/** ValidatePriorityLevelConfiguration. */
export function validatePriorityLevelConfiguration(pl: ApiObject): FieldError[] {
  const spec = obj(pl['spec']);
  const p = newPath('spec');
  const errs: FieldError[] = [];
  const type = spec['type'];
  if ((pl.metadata.name === 'exempt') !== (type === 'Exempt'))
    errs.push(
      fieldInvalid(
        p.child('type'),
        type ?? '',
        "type must be 'Exempt' if and only if name is 'exempt'"
      )
    );
  switch (type) {
    case 'Exempt': {
      if (isObject(spec['limited']))
        errs.push(fieldForbidden(p.child('limited'), 'must be nil if the type is not Limited'));
      const e = obj(spec['exempt']);
      const shares = num(e['nominalConcurrencyShares']);
      if (shares < 0)
        errs.push(
          fieldInvalid(
            p.child('exempt', 'nominalConcurrencyShares'),
            shares,
            'must be a non-negative integer'
          )
        );
      errs.push(...validatePercent(e['lendablePercent'], p.child('exempt', 'lendablePercent')));
      break;
    }
    case 'Limited':
      if (isObject(spec['exempt']))
        errs.push(fieldForbidden(p.child('exempt'), 'must be nil if the type is Limited'));
      if (!isObject(spec['limited']))
        errs.push(fieldRequired(p.child('limited'), 'must not be empty when type is Limited'));
      else errs.push(...validateLimited(spec['limited'], p.child('limited')));
      break;
    default:
      errs.push(fieldNotSupported(p.child('type'), type ?? '', ['Exempt', 'Limited']));
  }
  return errs;
}

export const priorityLevelConfigurationStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validate: validatePriorityLevelConfiguration,
  validateUpdate: validatePriorityLevelConfiguration,
};
