// Go-style durations as flags take them: `300ms`, `5s`, `2m`, `1h30m`.

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a duration string; throws on a malformed one. */
export function parseDuration(text: string): number {
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * (units[m[2] ?? ''] ?? 0);
    consumed = re.lastIndex;
  }
  if (consumed !== text.length || text.length === 0) {
    throw new Error(`invalid duration ${JSON.stringify(text)} (use forms like 300ms, 5s, 2m, 1h)`);
  }
  return total;
}
