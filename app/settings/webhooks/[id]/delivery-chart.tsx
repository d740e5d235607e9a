"use client";
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useLayoutEffect, useRef, useState } from "react";
import { ErrorState, Loading } from "@/app/ui/states";
import { useSettingsApi } from "../../settings-api";

type Range = "24h" | "7d";

/** Tries, not messages: what the success rates count too (server/webhooks/views/delivery-chart.ts). */
const series = [
  { key: "succeeded", label: "Succeeded tries", color: "#16a34a" },
  { key: "failed", label: "Failed tries", color: "#dc2626" },
] as const;

const rangeWords = { "24h": "24 hours", "7d": "7 days" } as const;

const hourLabel = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const dayLabel = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric" });

/** Tries per hour as stacked bars (SVG), with the totals also given as text for screen readers. */
export function DeliveryChart({ webhookId }: { webhookId: string }) {
  const [range, setRange] = useState<Range>("24h");
  const api = useSettingsApi();
  const chart = useQuery(api.webhooks.chart.queryOptions({ id: webhookId, range }, { refetchInterval: 30_000 }));

  return (
    <section aria-labelledby="chart-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="chart-title" className="font-semibold">
            Tries per hour
          </h2>
          <p className="text-sm text-slate-600">
            Every try to deliver a message, retries included. The success rates above are the share of these tries that succeeded, over the same hours.
          </p>
        </div>
        {/* biome-ignore lint/a11y/useSemanticElements: a segmented toggle of two buttons, not a form's fieldset */}
        <div role="group" aria-label="Time range" className="flex rounded-md ring-1 ring-slate-300">
          {(["24h", "7d"] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={range === option}
              onClick={() => setRange(option)}
              className={`px-3 py-1.5 text-sm first:rounded-l-md last:rounded-r-md ${range === option ? "bg-slate-900 text-white" : "hover:bg-slate-50"}`}
            >
              {rangeWords[option]}
            </button>
          ))}
        </div>
      </div>
      {chart.isPending ? (
        <Loading label="Loading the chart…" />
      ) : chart.isError ? (
        <ErrorState error={chart.error} onRetry={() => chart.refetch()} />
      ) : (
        <Bars buckets={chart.data.buckets} range={range} />
      )}
    </section>
  );
}

type Bucket = { hour: string; succeeded: number; failed: number };

const tooltipDay = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short" });

/** The hour a bucket covers, in the browser's time zone: "Tue 14 Jan, 13:00–14:00". */
function hourRange(hour: string) {
  const start = new Date(hour);
  return `${tooltipDay.format(start)}, ${hourLabel.format(start)}–${hourLabel.format(new Date(start.getTime() + 3_600_000))}`;
}

/** A round top for the value axis (1, 2 or 5 times a power of ten), so its ticks are whole numbers. */
function axisTop(peak: number) {
  if (peak <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(peak));
  return ([1, 2, 5, 10].map((step) => step * magnitude).find((top) => top >= peak) ?? 10 * magnitude) as number;
}

/** Until the figure is measured (then its own width, so text keeps its size on a phone). */
const defaultWidth = 720;
const height = 180;
const left = 36;
const bottom = 22;
const top = 8;
const plotHeight = height - bottom - top;

/** The width to draw at: the figure's own, but never narrower than a small phone's. */
const drawnWidth = (cssWidth: number) => Math.max(240, Math.round(cssWidth));

/**
 * The figure's width in CSS pixels, followed as the window changes. Measured
 * before the first paint (a layout effect), so the chart is never drawn, not
 * even for one frame, at the default width and scaled down with tiny text.
 */
function useWidth() {
  const ref = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(defaultWidth);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(drawnWidth(element.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => setWidth(drawnWidth(entry!.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** Labels at least this far apart (CSS pixels), so none overlaps its neighbour. */
const labelGap = 56;
/** Between the value axis's labels and the plot. */
const valueLabelGap = 6;

/**
 * Stacked bars per hour, drawn at the figure's own width (a phone gets fewer
 * axis labels, not smaller ones). Hovering or tapping a bar shows its hour
 * and counts; the chart takes keyboard focus too (arrow keys, Home, End move
 * between hours). An empty period keeps its axes and says so.
 */
function Bars({ buckets, range }: { buckets: Bucket[]; range: Range }) {
  const [figure, width] = useWidth();
  const [active, setActive] = useState<number | null>(null);
  const totals = Object.fromEntries(series.map(({ key }) => [key, buckets.reduce((sum, bucket) => sum + bucket[key], 0)])) as Record<
    (typeof series)[number]["key"],
    number
  >;
  const tries = totals.succeeded + totals.failed;
  const empty = tries === 0;
  const max = axisTop(Math.max(0, ...buckets.map((bucket) => bucket.succeeded + bucket.failed)));
  const step = [max / 5, max / 2, max].find(Number.isInteger)!;
  const ticks = Array.from({ length: max / step + 1 }, (_, index) => index * step);
  const slot = (width - left) / buckets.length;
  const barWidth = Math.max(1, slot * 0.75);
  // Labels on the browser's own midnights (7 days: every day, or every few days when narrow) or every few hours (24 hours).
  const every = (range === "24h" ? [3, 6, 12] : [24, 48, 72, 168]).find((hours) => hours * slot >= labelGap) ?? 168;
  // A label is about labelGap wide at most: one centred on an edge bar would run under the value axis's labels or out of the figure.
  const fits = (centre: number) => centre - labelGap / 2 >= left - valueLabelGap && centre + labelGap / 2 <= width;
  const labelled = (hour: Date, centre: number) =>
    fits(centre) &&
    hour.getMinutes() === 0 &&
    (range === "24h" ? hour.getHours() % every === 0 : hour.getHours() === 0 && Math.floor(hour.getTime() / 86_400_000) % (every / 24) === 0);
  const y = (value: number) => top + plotHeight - (value / max) * plotHeight;
  const shown = active === null ? null : buckets[active];

  function onKeyDown(event: KeyboardEvent<SVGSVGElement>) {
    const last = buckets.length - 1;
    const moves: Record<string, number> = {
      ArrowLeft: Math.max(0, (active ?? last) - 1),
      ArrowRight: Math.min(last, (active ?? last) + 1),
      Home: 0,
      End: last,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    setActive(moves[event.key]!);
  }

  return (
    <figure ref={figure} className="relative mt-4">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        className="block max-w-full touch-manipulation rounded focus-visible:outline-2 focus-visible:outline-indigo-600"
        role="img"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart is explored with the arrow keys, hour by hour
        tabIndex={0}
        aria-label={
          empty
            ? `No tries in this period (the last ${rangeWords[range]}).`
            : `Tries over the last ${rangeWords[range]}: ${totals.succeeded} succeeded, ${totals.failed} failed. Use the arrow keys to read each hour.`
        }
        aria-describedby={shown ? "chart-tooltip" : undefined}
        data-testid="delivery-chart"
        onKeyDown={onKeyDown}
        onFocus={() => setActive((current) => current ?? buckets.length - 1)}
        onBlur={() => setActive(null)}
        onPointerLeave={(event) => {
          if (event.pointerType === "mouse") setActive(null);
        }}
      >
        {ticks.map((value) => (
          <g key={value}>
            <line x1={left} x2={width} y1={y(value)} y2={y(value)} stroke={value === 0 ? "#94a3b8" : "#e2e8f0"} />
            <text x={left - valueLabelGap} y={y(value) + 4} textAnchor="end" fontSize="11" fill="#64748b">
              {value}
            </text>
          </g>
        ))}
        {buckets.map((bucket, index) => {
          const x = left + index * slot + (slot - barWidth) / 2;
          const hour = new Date(bucket.hour);
          let base = 0;
          return (
            <g key={bucket.hour} data-hour={bucket.hour}>
              {index === active && <rect x={left + index * slot} y={top} width={slot} height={plotHeight} fill="#e0e7ff" />}
              {series.map(({ key, color }) => {
                const value = bucket[key];
                if (value === 0) return null;
                const barTop = y(base + value);
                const rect = <rect key={key} x={x} y={barTop} width={barWidth} height={y(base) - barTop} fill={color} />;
                base += value;
                return rect;
              })}
              {labelled(hour, x + barWidth / 2) && (
                <>
                  <line x1={x + barWidth / 2} x2={x + barWidth / 2} y1={y(0)} y2={y(0) + 4} stroke="#94a3b8" />
                  <text x={x + barWidth / 2} y={height - 6} textAnchor="middle" fontSize="11" fill="#64748b">
                    {range === "24h" ? hourLabel.format(hour) : dayLabel.format(hour)}
                  </text>
                </>
              )}
              {/* The whole hour's column answers the pointer, so thin and empty bars are easy to hit. */}
              <rect
                x={left + index * slot}
                y={top}
                width={slot}
                height={plotHeight}
                fill="transparent"
                data-testid="chart-hour"
                onPointerEnter={() => setActive(index)}
                onPointerDown={() => setActive(index)}
              />
            </g>
          );
        })}
        {empty && (
          <text x={left + (width - left) / 2} y={top + plotHeight / 2} textAnchor="middle" fontSize="14" fill="#475569">
            No tries in this period
          </text>
        )}
      </svg>
      {shown && active !== null && (
        <div
          id="chart-tooltip"
          role="tooltip"
          data-testid="chart-tooltip"
          className="pointer-events-none absolute top-0 z-10 -translate-x-1/2 rounded-md bg-slate-900 px-3 py-2 text-xs text-white shadow-lg"
          style={{ left: `${Math.min(88, Math.max(12, ((left + (active + 0.5) * slot) / width) * 100))}%` }}
        >
          <p className="font-medium">{hourRange(shown.hour)}</p>
          {series.map(({ key, label, color }) => (
            <p key={key} className="mt-0.5 flex items-center gap-1.5">
              <span aria-hidden className="size-2 rounded-sm" style={{ background: color }} />
              {label}: {shown[key]}
            </p>
          ))}
        </div>
      )}
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {series.map(({ key, label, color }) => (
          <span key={key} className="flex items-center gap-1.5">
            <span aria-hidden className="size-3 rounded-sm" style={{ background: color }} />
            {label}: <strong data-testid={`chart-${key}`}>{totals[key]}</strong>
          </span>
        ))}
        <span className="text-slate-600" data-testid="chart-rate">
          {empty ? "No tries" : `${totals.succeeded.toLocaleString()} of ${tries.toLocaleString()} ${tries === 1 ? "try" : "tries"} succeeded`} in the last{" "}
          {rangeWords[range]}
        </span>
      </figcaption>
    </figure>
  );
}
