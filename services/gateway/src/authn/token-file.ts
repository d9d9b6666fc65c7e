// Static token file (--token-auth-file): CSV rows `token,user,uid,"group1,group2"`, read once at start.
import { readFileSync } from 'node:fs';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { TokenAuthenticator } from './authenticator.js';
import { audienceAgnostic } from './authenticator.js';

/** Splits one CSV line (RFC 4180 quoting: `"a,b"`, `""` for a quote). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (quoted) throw new Error('unterminated quoted field');
  out.push(cur);
  return out;
}

/** Parses the token file's text: token → user. Throws with the line number on a bad row. */
export function parseTokenFile(text: string, source = 'token file'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    let cols: string[];
    try {
      cols = parseCsvLine(line);
    } catch (err) {
      throw new Error(`${source}, line ${i + 1}: ${(err as Error).message}`);
    }
    if (cols.length < 3)
      throw new Error(
        `${source}, line ${i + 1}: want at least 3 columns (token, user name, uid), got ${cols.length}`
      );
    const [token = '', name = '', uid = '', groups = ''] = cols.map((c) => c.trim());
    if (!token || !name)
      throw new Error(`${source}, line ${i + 1}: token and user name must not be empty`);
    if (tokens.has(token)) throw new Error(`${source}, line ${i + 1}: duplicate token`);
    tokens.set(token, {
      name,
      uid,
      groups: groups
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean),
      extra: {},
    });
  });
  return tokens;
}

export function tokenFileAuthenticator(file: string): TokenAuthenticator {
  const tokens = parseTokenFile(readFileSync(file, 'utf8'), file);
  return audienceAgnostic((token) => {
    const u = tokens.get(token);
    return u && { ...u, groups: [...u.groups], extra: {} };
  });
}
