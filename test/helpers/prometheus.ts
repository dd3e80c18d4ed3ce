/**
 * A strict reader of Prometheus' text exposition format (0.0.4), as a scraper reads it: `# HELP`
 * and `# TYPE` lines, then samples `name{label="value",...} value`. Any line that is none of these
 * throws, and so does a sample of a family without a TYPE, so a test that parses the text proves
 * it is valid.
 */
const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL_NAME = '[a-zA-Z_][a-zA-Z0-9_]*';
/** Prometheus reads values with Go's ParseFloat: Inf and NaN in any case (prom-client writes `Nan`). */
const VALUE = '[+-]?(?:[Ii]nf|[Nn]a[Nn]|[0-9.]+(?:[eE][+-]?[0-9]+)?)';
const HELP_LINE = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE_LINE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (${VALUE})(?: (-?[0-9]+))?$`);
const LABEL = new RegExp(`^(${LABEL_NAME})="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"(,|$)`);

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = Object.create(null) as Record<string, string>;
  let rest = text;
  while (rest !== '') {
    const match = LABEL.exec(rest);
    if (!match) throw new Error(`bad labels in: ${line}`);
    labels[match[1]!] = match[2]!.replace(/\\(["\\n])/g, (_all, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(match[0].length);
  }
  return labels;
}

/** The family a sample belongs to: histograms and summaries add suffixes to their name. */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  const type = types.get(base);
  return type === 'histogram' || type === 'summary' ? base : undefined;
}

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || HELP_LINE.test(line)) continue;
    const type = TYPE_LINE.exec(line);
    if (type) {
      if (types.has(type[1]!)) throw new Error(`two TYPE lines for ${type[1]}`);
      types.set(type[1]!, type[2]!);
      continue;
    }
    const sample = SAMPLE_LINE.exec(line);
    if (!sample) throw new Error(`not a Prometheus text line: ${JSON.stringify(line)}`);
    const name = sample[1]!;
    if (familyOf(name, types) === undefined) throw new Error(`sample of a family without TYPE: ${line}`);
    const raw = sample[3]!;
    const value = /inf$/i.test(raw)
      ? raw.startsWith('-')
        ? -Infinity
        : Infinity
      : /nan$/i.test(raw)
        ? NaN
        : Number(raw);
    samples.push({ name, labels: parseLabels(sample[2] ?? '', line), value });
  }
  return { types, samples };
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = exposition.samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}
