// A cron schedule as upstream parses it (github.com/robfig/cron/v3 ParseStandard: five fields,
// or a descriptor such as @hourly or "@every 1h30m"), answering the parser's error text.
const descriptors = [
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
];

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const months = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const days = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const fields: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: months },
  { min: 0, max: 6, names: days },
];

function parseInt10(s: string, names?: Record<string, number>): number {
  const named = names?.[s.toLowerCase()];
  if (named !== undefined) return named;
  if (!/^-?[0-9]+$/.test(s))
    throw new Error(`failed to parse int from ${s}: strconv.Atoi: parsing "${s}": invalid syntax`);
  const n = Number(s);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${s}`);
  return n;
}

function parseRange(expr: string, b: Bounds): void {
  const [rangeAndStep, ...more] = [expr];
  void more;
  const parts = rangeAndStep!.split('/');
  const lowAndHigh = parts[0]!.split('-');
  if (parts.length > 2) throw new Error(`too many slashes: ${expr}`);
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = parseInt10(lowAndHigh[0]!, b.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseInt10(lowAndHigh[1]!, b.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  if (parts.length === 2) {
    const step = parseInt10(parts[1]!);
    if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
    if (lowAndHigh.length === 1 && lowAndHigh[0] !== '*' && lowAndHigh[0] !== '?') end = b.max;
  }
  if (start < b.min)
    throw new Error(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new Error(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end)
    throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
}

/** The parser's error for a schedule, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  const spec = schedule.trim();
  if (spec === '') return 'empty spec string';
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const i = rest.indexOf(' ');
    rest = i < 0 ? '' : rest.slice(i).trim();
  }
  if (rest.startsWith('@')) {
    if (descriptors.includes(rest)) return undefined;
    if (rest.startsWith('@every ')) {
      return /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/.test(rest.slice(7).trim())
        ? undefined
        : `failed to parse duration ${rest}: time: invalid duration "${rest.slice(7).trim()}"`;
    }
    return `unrecognized descriptor: ${rest}`;
  }
  const parts = rest.split(/\s+/);
  if (parts.length !== 5)
    return `expected exactly 5 fields, found ${parts.length}: [${parts.join(' ')}]`;
  try {
    parts.forEach((p, i) => {
      for (const expr of p.split(',')) parseRange(expr, fields[i]!);
    });
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}
