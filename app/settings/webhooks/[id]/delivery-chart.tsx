"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorState, Loading } from "@/app/ui/states";
import { settingsApi } from "../../settings-api";
import { webhookQueries } from "../webhook-queries";

type Range = "24h" | "7d";

const series = [
  { key: "succeeded", label: "Succeeded", color: "#16a34a" },
  { key: "failed", label: "Failed", color: "#dc2626" },
  { key: "waiting", label: "Waiting", color: "#d97706" },
] as const;

const hourLabel = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const dayLabel = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric" });

/** Messages per hour as stacked bars (SVG), with the totals also given as text for screen readers. */
export function DeliveryChart({ webhookId }: { webhookId: string }) {
  const [range, setRange] = useState<Range>("24h");
  const chart = useQuery({
    queryKey: [...webhookQueries.chart(webhookId), range],
    queryFn: () => settingsApi.webhooks.chart.query({ id: webhookId, range }),
    refetchInterval: 30_000,
  });

  return (
    <section aria-labelledby="chart-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="chart-title" className="font-semibold">
          Deliveries per hour
        </h2>
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
              {option === "24h" ? "24 hours" : "7 days"}
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

type Bucket = { hour: string; succeeded: number; failed: number; waiting: number };

function Bars({ buckets, range }: { buckets: Bucket[]; range: Range }) {
  const totals = Object.fromEntries(series.map(({ key }) => [key, buckets.reduce((sum, bucket) => sum + bucket[key], 0)])) as Record<
    (typeof series)[number]["key"],
    number
  >;
  const peak = Math.max(1, ...buckets.map((bucket) => bucket.succeeded + bucket.failed + bucket.waiting));
  const width = 720;
  const height = 180;
  const left = 36;
  const bottom = 22;
  const plotHeight = height - bottom - 8;
  const slot = (width - left) / buckets.length;
  const barWidth = Math.max(1, slot * 0.75);
  // Labels on the browser's own midnights (7 days) or every sixth hour (24 hours).
  const labelled = (hour: Date) => hour.getMinutes() === 0 && (range === "24h" ? hour.getHours() % 6 === 0 : hour.getHours() === 0);
  const y = (value: number) => 8 + plotHeight - (value / peak) * plotHeight;

  return (
    <figure className="mt-4">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-label={`Over the last ${range === "24h" ? "24 hours" : "7 days"}: ${totals.succeeded} succeeded, ${totals.failed} failed, ${totals.waiting} waiting.`}
      >
        {[0, peak / 2, peak].map((value) => (
          <g key={value}>
            <line x1={left} x2={width} y1={y(value)} y2={y(value)} stroke="#e2e8f0" />
            <text x={left - 6} y={y(value) + 4} textAnchor="end" fontSize="11" fill="#64748b">
              {Math.round(value)}
            </text>
          </g>
        ))}
        {buckets.map((bucket, index) => {
          const x = left + index * slot + (slot - barWidth) / 2;
          let base = 0;
          return (
            <g key={bucket.hour}>
              <title>{`${new Date(bucket.hour).toLocaleString()}: ${bucket.succeeded} succeeded, ${bucket.failed} failed, ${bucket.waiting} waiting`}</title>
              {series.map(({ key, color }) => {
                const value = bucket[key];
                if (value === 0) return null;
                const top = y(base + value);
                const rect = <rect key={key} x={x} y={top} width={barWidth} height={y(base) - top} fill={color} />;
                base += value;
                return rect;
              })}
              {labelled(new Date(bucket.hour)) && (
                <text x={x + barWidth / 2} y={height - 6} textAnchor="middle" fontSize="11" fill="#64748b">
                  {range === "24h" ? hourLabel.format(new Date(bucket.hour)) : dayLabel.format(new Date(bucket.hour))}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm">
        {series.map(({ key, label, color }) => (
          <span key={key} className="flex items-center gap-1.5">
            <span aria-hidden className="size-3 rounded-sm" style={{ background: color }} />
            {label}: <strong data-testid={`chart-${key}`}>{totals[key]}</strong>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
