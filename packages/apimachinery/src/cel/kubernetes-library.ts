// The Kubernetes CEL libraries (k8s.io/apiserver/pkg/cel/library: lists.go, regex.go, urls.go)
// registered on a @marcbachmann/cel-js Environment. Regular expressions are read as RE2 reads
// them (go-regexp.ts: inline flags, \A and \z, [:class:] names), as cel-go's are.
import type { Environment } from '@marcbachmann/cel-js';
import { compileGoRegexp } from './go-regexp.js';

/** The value of `url(string)` (upstream's apiservercel.URL over Go's net/url). */
export class CelUrl {
  constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string
  ) {}
}

// RFC 3986 appendix B.
const URI_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/su;

/** Go's url.ParseRequestURI: an absolute URI or an absolute path; undefined when neither. */
export function parseRequestUri(s: string): CelUrl | undefined {
  if (s === '') return undefined;
  const m = URI_PARTS.exec(s);
  if (!m) return undefined;
  const [, scheme, authority, path, query] = m;
  if (scheme === undefined) {
    if (!s.startsWith('/')) return undefined;
  } else {
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*$/u.test(scheme)) return undefined;
    try {
      new URL(s.replaceAll(' ', '%20'));
    } catch {
      return undefined;
    }
  }
  // Go refuses ASCII control characters anywhere in a URL.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return undefined;
  }
  return new CelUrl(scheme ?? '', authority ?? '', path ?? '', query ?? '');
}

function hostPort(u: CelUrl): { host: string; port: string } {
  const at = u.authority.lastIndexOf('@');
  const hp = at >= 0 ? u.authority.slice(at + 1) : u.authority;
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/u.exec(hp);
  if (!m) return { host: hp, port: '' };
  return { host: m[1] ?? '', port: m[2] ?? '' };
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (
    (typeof a === 'bigint' || typeof a === 'number') &&
    (typeof b === 'bigint' || typeof b === 'number')
  ) {
    const x = Number(a);
    const y = Number(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  throw new Error(`no such overload: comparison of ${typeof a} and ${typeof b}`);
}

function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) =>
        valuesEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
      )
    );
  }
  if (
    (typeof a === 'bigint' || typeof a === 'number') &&
    (typeof b === 'bigint' || typeof b === 'number')
  )
    return Number(a) === Number(b);
  return false;
}

/** A pattern read as RE2 reads it (go-regexp.ts), global for find and findAll. */
function regex(pattern: string): RegExp {
  const re = compileGoRegexp(pattern);
  if (re instanceof Error) throw new Error(`invalid regex: ${re.message}`, { cause: re });
  return new RegExp(re.source, `${re.flags}g`);
}

/** Registers the lists, regex and URL libraries on `env` (returned for chaining). */
export function registerKubernetesLibrary(env: Environment): Environment {
  // lists.go
  env.registerFunction('list.isSorted(): bool', (l: unknown[]) => {
    for (let i = 1; i < l.length; i++) if (compareValues(l[i - 1], l[i]) > 0) return false;
    return true;
  });
  env.registerFunction('list.sum(): dyn', (l: unknown[]) => {
    if (l.length === 0) return 0n;
    let acc = l[0];
    for (let i = 1; i < l.length; i++) {
      const v = l[i];
      if (typeof acc === 'bigint' && typeof v === 'bigint') acc = acc + v;
      else if (typeof acc === 'number' && typeof v === 'number') acc = acc + v;
      else throw new Error(`no such overload: sum of ${typeof acc} and ${typeof v}`);
    }
    return acc;
  });
  env.registerFunction('list.min(): dyn', (l: unknown[]) => {
    if (l.length === 0) throw new Error('min called on empty list');
    return l.reduce((a, b) => (compareValues(b, a) < 0 ? b : a));
  });
  env.registerFunction('list.max(): dyn', (l: unknown[]) => {
    if (l.length === 0) throw new Error('max called on empty list');
    return l.reduce((a, b) => (compareValues(b, a) > 0 ? b : a));
  });
  env.registerFunction('list.indexOf(dyn): int', (l: unknown[], v: unknown) =>
    BigInt(l.findIndex((x) => valuesEqual(x, v)))
  );
  env.registerFunction('list.lastIndexOf(dyn): int', (l: unknown[], v: unknown) => {
    for (let i = l.length - 1; i >= 0; i--) if (valuesEqual(l[i], v)) return BigInt(i);
    return -1n;
  });

  // regex.go
  env.registerFunction('string.find(string): string', (s: string, p: string) => {
    const m = regex(p).exec(s);
    return m ? m[0] : '';
  });
  const findAll = (s: string, p: string, n: bigint): string[] => {
    const out: string[] = [];
    if (n === 0n) return out;
    for (const m of s.matchAll(regex(p))) {
      out.push(m[0]);
      if (n > 0n && BigInt(out.length) >= n) break;
    }
    return out;
  };
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) =>
    findAll(s, p, -1n)
  );
  env.registerFunction('string.findAll(string, int): list<string>', findAll);

  // urls.go
  env.registerType('net.URL', CelUrl);
  env.registerFunction('isURL(string): bool', (s: string) => parseRequestUri(s) !== undefined);
  env.registerFunction('url(string): net.URL', (s: string) => {
    const u = parseRequestUri(s);
    if (!u) throw new Error(`URL parse error during conversion from string: ${s}`);
    return u;
  });
  env.registerFunction('net.URL.getScheme(): string', (u: CelUrl) => u.scheme);
  env.registerFunction('net.URL.getHost(): string', (u: CelUrl) => {
    const { host, port } = hostPort(u);
    return port === '' ? host : `${host}:${port}`;
  });
  env.registerFunction('net.URL.getHostname(): string', (u: CelUrl) => {
    const { host } = hostPort(u);
    return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  });
  env.registerFunction('net.URL.getPort(): string', (u: CelUrl) => hostPort(u).port);
  env.registerFunction('net.URL.getEscapedPath(): string', (u: CelUrl) =>
    u.path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (c) => encodeURIComponent(c))
  );
  env.registerFunction('net.URL.getQuery(): map<string, list<string>>', (u: CelUrl) => {
    const out: Record<string, string[]> = {};
    for (const [k, v] of new URLSearchParams(u.query)) (out[k] ??= []).push(v);
    return out;
  });
  return env;
}
