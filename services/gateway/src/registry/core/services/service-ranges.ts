// The ranges Service addresses and node ports come from: a CIDR per IP family
// (--service-cluster-ip-range, one or two for dual-stack) and a port range
// (--service-node-port-range). Upstream: pkg/registry/core/service/ipallocator (the usable
// addresses of a CIDR, the dynamic band of calculateRangeOffset) and
// k8s.io/apimachinery/pkg/util/net PortRange.
import { isIPv4, isIPv6 } from 'node:net';

export type IpFamily = 'IPv4' | 'IPv6';

/** The usable addresses of a CIDR: offset 0 is the address after the network address. */
export class CidrRange {
  readonly text: string;
  readonly family: IpFamily;
  readonly #base: bigint;
  readonly #bits: number;
  /** How many addresses can be handed out. */
  readonly size: number;

  private constructor(text: string, family: IpFamily, network: bigint, prefix: number) {
    this.text = text;
    this.family = family;
    this.#bits = family === 'IPv4' ? 32 : 128;
    const hostBits = this.#bits - prefix;
    const total = 2n ** BigInt(hostBits);
    this.#base = network + 1n;
    // IPv4 loses the network and broadcast addresses; IPv6 the subnet-router anycast address.
    // Upstream caps a range at 2^16 addresses (the bitmap allocator's limit).
    const usable = family === 'IPv4' ? total - 2n : total - 1n;
    this.size = Number(usable < 0n ? 0n : usable > 65536n ? 65536n : usable);
  }

  /** Parses `10.0.0.0/24` or `fd00::/108`; throws with the reason. */
  static parse(text: string): CidrRange {
    const m = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
    if (!m) throw new Error(`${JSON.stringify(text)} is not a CIDR`);
    const [, addr = '', prefixText = ''] = m;
    const family: IpFamily | undefined = isIPv4(addr) ? 'IPv4' : isIPv6(addr) ? 'IPv6' : undefined;
    if (!family) throw new Error(`${JSON.stringify(text)} is not a CIDR`);
    const bits = family === 'IPv4' ? 32 : 128;
    const prefix = Number(prefixText);
    if (prefix > bits) throw new Error(`${JSON.stringify(text)} is not a CIDR`);
    const value = ipToBigInt(addr);
    const mask = ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - prefix)) - 1n);
    const network = value & mask;
    const range = new CidrRange(
      `${bigIntToIp(network, family)}/${prefix}`,
      family,
      network,
      prefix
    );
    if (range.size < 1) throw new Error(`${text}: the range has no usable address`);
    return range;
  }

  /** The offset of an address in this range, or undefined when it is outside. */
  offsetOf(ip: string): number | undefined {
    if (familyOf(ip) !== this.family) return undefined;
    const off = ipToBigInt(ip) - this.#base;
    return off >= 0n && off < BigInt(this.size) ? Number(off) : undefined;
  }

  ipAt(offset: number): string {
    return bigIntToIp(this.#base + BigInt(offset), this.family);
  }
}

/** A port range `30000-32767` (or `30000+2767`, upstream's PortRange syntax), both ends in. */
export class PortRange {
  readonly base: number;
  readonly size: number;

  constructor(base: number, size: number) {
    this.base = base;
    this.size = size;
  }

  get text(): string {
    return `${this.base}-${this.base + this.size - 1}`;
  }

  static parse(text: string): PortRange {
    const t = text.trim();
    const m = /^(\d{1,5})(?:([-+])(\d{1,5}))?$/.exec(t);
    if (!m) throw new Error(`${JSON.stringify(text)} is not a port range (from-to)`);
    const low = Number(m[1]);
    const high = m[2] === '+' ? low + Number(m[3]) : m[2] === '-' ? Number(m[3]) : low;
    if (low < 1 || high > 65535 || high < low)
      throw new Error(`${JSON.stringify(text)} is not a port range within 1-65535`);
    return new PortRange(low, high - low + 1);
  }

  offsetOf(port: number): number | undefined {
    const off = port - this.base;
    return Number.isInteger(off) && off >= 0 && off < this.size ? off : undefined;
  }

  portAt(offset: number): number {
    return this.base + offset;
  }
}

/** IPv4, IPv6 or undefined for a string that is no address. */
export function familyOf(ip: string): IpFamily | undefined {
  return isIPv4(ip) ? 'IPv4' : isIPv6(ip) ? 'IPv6' : undefined;
}

/**
 * The first offset of the dynamic band (calculateRangeOffset): a range of 16 or more keeps its
 * lower part, between 16 and 256 addresses, for addresses clients ask for.
 */
export function dynamicOffset(size: number): number {
  const min = 16;
  const max = 256;
  const step = 16;
  if (size < min) return 0;
  return Math.max(min, Math.min(max, Math.floor(size / step)));
}

function ipToBigInt(ip: string): bigint {
  if (isIPv4(ip)) return ip.split('.').reduce((acc, p) => (acc << 8n) + BigInt(Number(p)), 0n);
  let text = ip;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hextets.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const n = ipToBigInt(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

function bigIntToIp(n: bigint, family: IpFamily): string {
  if (family === 'IPv4') {
    return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join('.');
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((n >> BigInt(i * 16)) & 0xffffn));
  // The canonical form (RFC 5952): the longest run of two or more zero groups becomes ::.
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  const left = hex.slice(0, bestStart).join(':');
  const right = hex.slice(bestStart + bestLen).join(':');
  return `${left}::${right}`;
}
