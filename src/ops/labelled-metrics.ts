/**
 * A labelled counter and histogram for the metrics every request adds to, kept in plain maps and
 * written out as Prometheus text only when `/metrics` is read.
 *
 * prom-client's labelled `inc` and `observe` check the label object's names and hash it on every
 * call, and `observe` makes a closure each time: the request counter and the duration histogram
 * added ~3 µs of CPU to each request of a bare Fastify route (docs/indexing.md, "Session 39"),
 * against ~1 µs in a loop. Here a call is one map look-up by the label values joined, and an add.
 */

/** One labelled series: its label values (in the metric's label-name order) and what it holds. */
interface Series<T> {
  values: readonly string[];
  data: T;
}

/** A series' labels: a value for each of the metric's label names. */
export type Labels<L extends string> = Readonly<Record<L, string>>;

/** Series keyed by their label values joined by NUL, which no label value of ours holds. */
class SeriesMap<L extends string, T> {
  private readonly byKey = new Map<string, Series<T>>();

  constructor(
    private readonly labelNames: readonly L[],
    private readonly create: () => T,
  ) {}

  /** The series of these labels, made when it is new. */
  get(labels: Labels<L>): T {
    const key = this.key(labels);
    let series = this.byKey.get(key);
    if (!series) {
      series = { values: this.labelNames.map((name) => labels[name]), data: this.create() };
      this.byKey.set(key, series);
    }
    return series.data;
  }

  /** The series of these labels, if it exists. */
  find(labels: Labels<L>): T | undefined {
    return this.byKey.get(this.key(labels))?.data;
  }

  private key(labels: Labels<L>): string {
    const names = this.labelNames;
    let key = names.length > 0 ? labels[names[0] as L] : '';
    for (let i = 1; i < names.length; i++) key += `\u0000${labels[names[i] as L]}`;
    return key;
  }

  /** `{name="value",…}` for a series, after a `first` pair (a histogram's `le`, first as prom-client writes it). */
  labels(values: readonly string[], first = ''): string {
    const pairs = this.labelNames.map((name, i) => `${name}="${escapeLabelValue(values[i] ?? '')}"`);
    if (first) pairs.unshift(first);
    return pairs.length > 0 ? `{${pairs.join(',')}}` : '';
  }

  entries(): Iterable<Series<T>> {
    return this.byKey.values();
  }
}

/** Prometheus text format: a label value escapes backslash, double quote and line feed. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** Prometheus text format: HELP text escapes backslash and line feed. */
function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

function numberText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

export interface MetricDefinition<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
}

export class LabelledCounter<L extends string> {
  private readonly series: SeriesMap<L, { count: number }>;

  constructor(readonly definition: MetricDefinition<L>) {
    this.series = new SeriesMap(definition.labelNames, () => ({ count: 0 }));
  }

  /** Adds `by` (default 1) to the series of these labels. */
  inc(labels: Labels<L>, by = 1): void {
    this.series.get(labels).count += by;
  }

  /** The current value of one series (0 when it was never added to). */
  value(labels: Labels<L>): number {
    return this.series.find(labels)?.count ?? 0;
  }

  text(): string {
    const { name, help } = this.definition;
    const lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} counter`];
    for (const { values, data } of this.series.entries()) lines.push(`${name}${this.series.labels(values)} ${numberText(data.count)}`);
    return lines.join('\n');
  }
}

interface HistogramData {
  /** Observations per bucket, not cumulative; the last slot counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class LabelledHistogram<L extends string> {
  private readonly series: SeriesMap<L, HistogramData>;
  private readonly bounds: Float64Array;

  constructor(
    readonly definition: MetricDefinition<L>,
    buckets: readonly number[],
  ) {
    if ((definition.labelNames as readonly string[]).includes('le')) throw new Error('le is the bucket label of a histogram');
    this.bounds = Float64Array.from([...buckets].sort((a, b) => a - b));
    const slots = this.bounds.length + 1;
    this.series = new SeriesMap(definition.labelNames, () => ({ counts: new Float64Array(slots), sum: 0, count: 0 }));
  }

  /** Records one observation in the series of these labels. */
  observe(labels: Labels<L>, value: number): void {
    const data = this.series.get(labels);
    const { bounds } = this;
    let slot = 0;
    while (slot < bounds.length && value > (bounds[slot] as number)) slot++;
    data.counts[slot] = (data.counts[slot] ?? 0) + 1;
    data.sum += value;
    data.count++;
  }

  text(): string {
    const { name, help } = this.definition;
    const lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} histogram`];
    for (const { values, data } of this.series.entries()) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += data.counts[i] as number;
        lines.push(`${name}_bucket${this.series.labels(values, `le="${numberText(this.bounds[i] as number)}"`)} ${cumulative}`);
      }
      lines.push(`${name}_bucket${this.series.labels(values, 'le="+Inf"')} ${data.count}`);
      lines.push(`${name}_sum${this.series.labels(values)} ${numberText(data.sum)}`);
      lines.push(`${name}_count${this.series.labels(values)} ${data.count}`);
    }
    return lines.join('\n');
  }
}
