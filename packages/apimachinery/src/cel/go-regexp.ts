// Compiling a Go RE2 pattern (a schema `pattern`, a CEL regex; as upstream's regexp.Compile
// reads them) into a JavaScript RegExp: leading inline flags ((?i), (?s), (?m)) become RegExp flags, \A and \z
// anchors and the ASCII [:class:] names are translated, and RE2's refusals of lookaround and
// backreferences are kept. Patterns that need no translation compile unchanged.

const posixClasses: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const cache = new Map<string, RegExp | Error>();

/** The RegExp of a Go pattern, or the Error saying why RE2 would not compile it. */
export function compileGoRegexp(pattern: string): RegExp | Error {
  let re = cache.get(pattern);
  if (re === undefined) {
    re = compile(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

function compile(pattern: string): RegExp | Error {
  const unsupported = /\(\?<?[=!]/.exec(pattern);
  if (unsupported) {
    return new Error(
      `error parsing regexp: invalid or unsupported Perl syntax: \`${unsupported[0]}\``
    );
  }
  const backref = /(?<!\\)(?:\\\\)*\\([1-9])/.exec(pattern);
  if (backref) {
    return new Error(`error parsing regexp: invalid escape sequence: \`\\${backref[1]}\``);
  }
  let flags = '';
  let src = pattern;
  // Inline flags at the start, or right after a leading `^` (Gateway API's `^(?i)...`): they
  // hold for the rest of the pattern, so they become the RegExp's flags. The `^` before them
  // stays the start of the text even under (?m).
  const inline = /^(\^?)\(\?([ims]+)\)/.exec(src);
  if (inline) {
    flags = [...new Set(inline[2]!)].join('');
    const start = inline[1] ? (flags.includes('m') ? '(?<![\\s\\S])' : '^') : '';
    src = start + src.slice(inline[0].length);
  }
  src = src
    .replace(/\[:(\^?)([a-z]+):\]/g, (m, neg: string, name: string) => {
      const cls = posixClasses[name];
      return cls === undefined ? m : neg ? `[^${cls}]` : cls;
    })
    .replace(/(?<!\\)((?:\\\\)*)\\A/g, '$1^')
    .replace(/(?<!\\)((?:\\\\)*)\\z/g, '$1$(?![\\s\\S])');
  try {
    return new RegExp(src, `${flags}u`);
  } catch {
    try {
      return new RegExp(src, flags);
    } catch (e) {
      return new Error(`error parsing regexp: ${(e as Error).message}`);
    }
  }
}
