// Resource quantities (k8s.io/apimachinery/pkg/api/resource Quantity): parsed exactly into
// nano-units (BigInt; finer values round up, as upstream's), added, compared, and written back
// in upstream's canonical form (`1500m`, `2k`, `1536Mi`, `1e3`) in the format they came in.
const pattern = /^([+-]?)(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The amount in units of 10^-9. */
  nano: bigint;
  format: QuantityFormat;
}

const NANO = 1_000_000_000n;
const decimalExp: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binaryExp: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** Parses a quantity; undefined when the text is not one. */
export function parseQuantity(text: string): Quantity | undefined {
  const m = pattern.exec(text);
  if (!m) return undefined;
  const [, sign = '', num = '', suffix = ''] = m;
  const [intPart = '', fracPart = ''] = num.split('.');
  // digits / 10^frac.length, then scaled
  let digits = BigInt((intPart || '0') + fracPart);
  let scale = -fracPart.length; // power of ten
  let mul = 1n; // power of two factor
  let format: QuantityFormat = 'DecimalSI';
  if (suffix in binaryExp) {
    mul = 1n << BigInt(binaryExp[suffix]!);
    format = 'BinarySI';
  } else if (/^[eE]/.test(suffix)) {
    scale += Number(suffix.slice(1));
    format = 'DecimalExponent';
  } else {
    scale += decimalExp[suffix]!;
  }
  digits *= mul;
  // to nano: digits * 10^(scale+9), rounding up what is finer
  const e = scale + 9;
  let nano: bigint;
  if (e >= 0) nano = digits * 10n ** BigInt(e);
  else {
    const d = 10n ** BigInt(-e);
    nano = digits / d + (digits % d === 0n ? 0n : 1n);
  }
  return { nano: sign === '-' ? -nano : nano, format };
}

export function mustParseQuantity(text: string): Quantity {
  const q = parseQuantity(text);
  if (!q)
    throw new Error(`quantities must match the regular expression '${pattern.source}': ${text}`);
  return q;
}

export function isQuantityText(text: string): boolean {
  return pattern.test(text);
}

/** Upstream's canonical text of a quantity (Quantity.String()). */
export function formatQuantity(q: Quantity): string {
  const { nano } = q;
  if (nano === 0n) return '0';
  const neg = nano < 0n;
  const abs = neg ? -nano : nano;
  const sign = neg ? '-' : '';
  if (q.format === 'BinarySI' && abs % NANO === 0n && abs >= 1024n * NANO) {
    let v = abs / NANO;
    let i = 0;
    const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
    while (i < 6 && v % 1024n === 0n) {
      v /= 1024n;
      i++;
    }
    return `${sign}${v}${suffixes[i]}`;
  }
  // decimal: the largest exponent (a multiple of 3, from -9) keeping the mantissa whole
  let v = abs;
  let exp = -9;
  while (exp < 18 && v % 1000n === 0n) {
    v /= 1000n;
    exp += 3;
  }
  if (q.format === 'DecimalExponent') return `${sign}${v}${exp === 0 ? '' : `e${exp}`}`;
  const suffix = Object.entries(decimalExp).find(([, e]) => e === exp)?.[0] ?? '';
  return `${sign}${v}${suffix}`;
}

/** a + b in a's format, or b's when a is zero (Quantity.Add). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.nano === 0n ? b.format : a.format };
}

/** a - b in a's format, or b's when a is zero (Quantity.Sub). */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano - b.nano, format: a.nano === 0n ? b.format : a.format };
}

export function compareQuantities(a: Quantity, b: Quantity): number {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

/** The value in thousandths, rounded up (Quantity.MilliValue). */
export function milliValue(q: Quantity): bigint {
  const d = 1_000_000n;
  return q.nano / d + (q.nano % d > 0n ? 1n : 0n);
}

/** The whole value, rounded up (Quantity.Value). */
export function wholeValue(q: Quantity): bigint {
  return q.nano / NANO + (q.nano % NANO > 0n ? 1n : 0n);
}

export function quantityFromInt(
  n: number | bigint,
  format: QuantityFormat = 'DecimalSI'
): Quantity {
  return { nano: BigInt(n) * NANO, format };
}
