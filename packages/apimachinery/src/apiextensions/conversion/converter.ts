// How the objects of a custom resource change version, chosen by the CRD's conversion strategy
// (upstream pkg/apiserver/conversion/converter.go NewConverter, nop_converter.go): `None`
// changes only apiVersion, `Webhook` asks the CRD's conversion webhook (webhook-converter.ts).
import type { CustomResourceDefinition } from '../types.js';
import { newInternalError } from '../../errors/index.js';

/** `objs` (never mutated) at `apiVersion`, those already there unchanged. */
export type CustomResourceConverter = (
  objs: readonly Record<string, unknown>[],
  apiVersion: string
) => Promise<Record<string, unknown>[]>;

/** Upstream's nopConverter: the same fields under the other apiVersion. */
export const nopConverter: CustomResourceConverter = (objs, apiVersion) =>
  Promise.resolve(objs.map((o) => ({ ...o, apiVersion })));

/** The converter of a strategy this server does not know (CRD validation admits none). */
export function unknownStrategyConverter(crd: CustomResourceDefinition): CustomResourceConverter {
  const strategy = crd.spec.conversion?.strategy;
  return (objs, apiVersion) => {
    const from = objs.find((o) => o['apiVersion'] !== apiVersion);
    return Promise.reject(
      newInternalError(
        `conversion webhook for ${String(from?.['apiVersion'])}, Kind=${crd.spec.names.kind} failed: ` +
          `unknown conversion strategy ${JSON.stringify(strategy)}`
      )
    );
  };
}
