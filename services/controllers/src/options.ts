// Flags of the controllers service (options → complete → validate; config.ts builds from them).
import {
  InvalidOptionsError,
  logLevel,
  loggingFlags,
  parseDuration,
  parseFlags,
  validateLogLevel,
} from '@orch/component-base/flags';
import type { FlagValues } from '@orch/component-base/flags';
import type { LogLevel } from '@orch/component-base/logs';

export const controllersFlags = {
  kubeconfig: {
    type: 'string',
    description: "Kubeconfig with the API address and this component's client certificate.",
  },
  'resource-quota-sync-period': {
    type: 'string',
    default: '5m',
    description:
      'How often the resource quota controller recalculates every quota (upstream --resource-quota-sync-period).',
  },
  ...loggingFlags(),
} as const;

export type ControllersOptions = FlagValues<typeof controllersFlags>;

export interface CompletedControllersOptions {
  kubeconfig: string;
  logLevel: LogLevel;
  /** The resource quota controller's full resync period; NaN when the flag is malformed. */
  resourceQuotaSyncMs: number;
}

export function parseControllersOptions(argv?: string[]): ControllersOptions {
  return parseFlags('orch-controllers', controllersFlags, argv);
}

export function completeControllersOptions(f: ControllersOptions): CompletedControllersOptions {
  let resourceQuotaSyncMs = NaN;
  try {
    resourceQuotaSyncMs = parseDuration(f['resource-quota-sync-period'] ?? '5m');
  } catch {
    // reported by validate
  }
  return { kubeconfig: f.kubeconfig ?? '', logLevel: logLevel(f), resourceQuotaSyncMs };
}

export function validateControllersOptions(o: CompletedControllersOptions): string[] {
  return [
    ...(o.kubeconfig ? [] : ['--kubeconfig is required']),
    ...validateLogLevel(o.logLevel),
    ...(o.resourceQuotaSyncMs > 0
      ? []
      : ['--resource-quota-sync-period must be a positive duration (forms like 30s, 5m, 1h)']),
  ];
}

/** parse → complete → validate; throws InvalidOptionsError with every error. */
export function controllersOptions(argv?: string[]): CompletedControllersOptions {
  const completed = completeControllersOptions(parseControllersOptions(argv));
  const errors = validateControllersOptions(completed);
  if (errors.length) throw new InvalidOptionsError('orch-controllers', errors);
  return completed;
}
