// Reading a service's /metrics (the Prometheus text format) for the bench's notes: the sum of the
// samples of one name whose labels include the ones asked for. Comments and other names are
// skipped; a label value may hold escaped quotes.

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \S+)?$/;
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function labelsOf(text: string | undefined): Map<string, string> {
  const labels = new Map<string, string>();
  for (const m of (text ?? '').matchAll(labelPair)) {
    labels.set(
      m[1]!,
      m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    );
  }
  return labels;
}

/**
 * The sum of the samples named `name` whose labels include `labels` (every series of the name
 * when none are given); undefined when no sample matches.
 */
export function sampleSum(
  text: string,
  name: string,
  labels: Record<string, string> = {}
): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = sampleLine.exec(line);
    if (!m || m[1] !== name) continue;
    const have = labelsOf(m[2]);
    if (Object.entries(labels).some(([k, v]) => have.get(k) !== v)) continue;
    sum = (sum ?? 0) + Number(m[3]);
  }
  return sum;
}
