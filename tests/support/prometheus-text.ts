/**
 * A strict reader of Prometheus's text exposition format (version 0.0.4),
 * written from its specification, not from prom-client: it throws on any
 * line the format does not allow, on a sample without a `# TYPE` for its
 * family, and on a histogram whose buckets are not cumulative or whose `+Inf`
 * bucket differs from its `_count`.
 */
export type Sample = { name: string; labels: Record<string, string>; value: number };
export type Family = { name: string; type: string; help: string; samples: Sample[] };

const metricName = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const labelName = "[a-zA-Z_][a-zA-Z0-9_]*";
const labelValue = '"(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
// As Go's strconv.ParseFloat reads it, which Prometheus uses: NaN and Inf in any case (prom-client writes `Nan`).
const number = "[-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|[Ii][Nn][Ff](?:[Ii][Nn][Ii][Tt][Yy])?|[Nn][Aa][Nn])";
const sampleLine = new RegExp(`^(${metricName})(?:\\{((?:${labelName}=${labelValue})(?:,${labelName}=${labelValue})*,?)?\\})? (${number})(?: -?[0-9]+)?$`);
const labelPair = new RegExp(`(${labelName})=(${labelValue})`, "g");
const types = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const suffixes: Record<string, string[]> = { histogram: ["_bucket", "_sum", "_count"], summary: ["_sum", "_count"] };

const labelText = (quoted: string) => quoted.slice(1, -1).replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const familyOf = (sample: string) => {
    if (families.has(sample)) return families.get(sample)!;
    for (const family of families.values()) {
      if ((suffixes[family.type] ?? []).some((suffix) => sample === `${family.name}${suffix}`)) return family;
    }
    throw new Error(`sample ${sample} has no # TYPE line before it`);
  };
  if (!text.endsWith("\n")) throw new Error("the text must end with a line feed");
  for (const [index, line] of text.slice(0, -1).split("\n").entries()) {
    const where = `line ${index + 1} (${JSON.stringify(line)})`;
    if (line.trim() === "") continue;
    const help = new RegExp(`^# HELP (${metricName}) (.*)$`).exec(line);
    const type = new RegExp(`^# TYPE (${metricName}) (\\w+)$`).exec(line);
    if (help) {
      const family = families.get(help[1]!) ?? { name: help[1]!, type: "untyped", help: "", samples: [] };
      family.help = help[2]!;
      families.set(family.name, family);
    } else if (type) {
      if (!types.has(type[2]!)) throw new Error(`${where}: unknown type`);
      const family = families.get(type[1]!) ?? { name: type[1]!, type: "untyped", help: "", samples: [] };
      if (family.samples.length > 0) throw new Error(`${where}: # TYPE after the family's samples`);
      family.type = type[2]!;
      families.set(family.name, family);
    } else if (line.startsWith("#")) {
    } else {
      const sample = sampleLine.exec(line);
      if (!sample) throw new Error(`${where}: not a valid sample line`);
      const labels: Record<string, string> = {};
      for (const [, name, value] of (sample[2] ?? "").matchAll(labelPair)) {
        if (name! in labels) throw new Error(`${where}: label ${name} twice`);
        labels[name!] = labelText(value!);
      }
      familyOf(sample[1]!).samples.push({
        name: sample[1]!,
        labels,
        value: Number(sample[3]!.replace(/^([-+]?)inf(inity)?$/i, "$1Infinity").replace(/^nan$/i, "NaN")),
      });
    }
  }
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

function checkHistogram(family: Family) {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
  const keyOf = (labels: Record<string, string>) =>
    JSON.stringify(
      Object.entries(labels)
        .filter(([name]) => name !== "le")
        .sort(),
    );
  for (const sample of family.samples) {
    const entry = series.get(keyOf(sample.labels)) ?? { buckets: [] };
    series.set(keyOf(sample.labels), entry);
    if (sample.name.endsWith("_bucket")) entry.buckets.push([Number(sample.labels.le!.replace("+Inf", "Infinity")), sample.value]);
    if (sample.name.endsWith("_count")) entry.count = sample.value;
  }
  for (const [key, { buckets, count }] of series) {
    const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
    if (sorted.at(-1)?.[0] !== Number.POSITIVE_INFINITY) throw new Error(`${family.name}${key}: no +Inf bucket`);
    sorted.forEach(([, value], index) => {
      if (index > 0 && value < sorted[index - 1]![1]) throw new Error(`${family.name}${key}: buckets not cumulative`);
    });
    if (sorted.at(-1)![1] !== count) throw new Error(`${family.name}${key}: +Inf bucket differs from _count`);
  }
}

/** The sum over the samples of `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const samples = [...families.values()]
    .flatMap((family) => family.samples)
    .filter((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value));
  return samples.reduce((sum, sample) => sum + sample.value, 0);
}
