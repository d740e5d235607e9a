CREATE TABLE "fan_out_positions" (
	"company_id" text PRIMARY KEY NOT NULL,
	"tx_id" bigint DEFAULT 0 NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "fan_out_positions" ADD CONSTRAINT "fan_out_positions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Existing companies start just before the earliest event a queued fan-out job
-- that can still run waits to handle, otherwise after their last event, and
-- never past the snapshot horizon (a transaction still open may commit events
-- below it). Queued jobs of the old form (event ids, in a per-company named
-- queue) become the new form (the company, in no named queue); the worker's
-- maintenance run catches up whatever else is left behind.
DO $$
BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NULL THEN
    INSERT INTO fan_out_positions (company_id, tx_id, seq)
    SELECT c.id, p.tx_id, p.seq FROM companies c
    LEFT JOIN LATERAL (SELECT e.tx_id, e.seq FROM events e WHERE e.company_id = c.id ORDER BY e.tx_id DESC, e.seq DESC LIMIT 1) l ON true
    CROSS JOIN LATERAL (
      SELECT * FROM (VALUES (coalesce(l.tx_id, 0), coalesce(l.seq, 0)), ((pg_snapshot_xmin(pg_current_snapshot())::text)::bigint, 0::bigint)) AS v(tx_id, seq)
      ORDER BY 1, 2 LIMIT 1
    ) p;
    RETURN;
  END IF;
  EXECUTE $sql$
    WITH queued AS (
      SELECT jsonb_array_elements_text(j.payload::jsonb -> 'eventIds') AS event_id
      FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = 'fan-out-events' AND j.payload::jsonb ? 'eventIds' AND j.attempts < j.max_attempts
    )
    INSERT INTO fan_out_positions (company_id, tx_id, seq)
    SELECT c.id, p.tx_id, p.seq FROM companies c
    LEFT JOIN LATERAL (
      SELECT e.tx_id, e.seq FROM events e JOIN queued q ON q.event_id = e.id WHERE e.company_id = c.id ORDER BY e.tx_id, e.seq LIMIT 1
    ) w ON true
    LEFT JOIN LATERAL (SELECT e.tx_id, e.seq FROM events e WHERE e.company_id = c.id ORDER BY e.tx_id DESC, e.seq DESC LIMIT 1) l ON true
    CROSS JOIN LATERAL (
      SELECT * FROM (VALUES (coalesce(w.tx_id, l.tx_id, 0), coalesce(w.seq - 1, l.seq, 0)), ((pg_snapshot_xmin(pg_current_snapshot())::text)::bigint, 0::bigint)) AS v(tx_id, seq)
      ORDER BY 1, 2 LIMIT 1
    ) p
  $sql$;
  EXECUTE $sql$
    UPDATE graphile_worker._private_jobs j SET payload = json_build_object('companyId', e.company_id), job_queue_id = NULL
    FROM graphile_worker._private_tasks t, events e
    WHERE t.id = j.task_id AND t.identifier = 'fan-out-events' AND e.id = j.payload::jsonb -> 'eventIds' ->> 0
  $sql$;
  EXECUTE $sql$
    DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks t
    WHERE t.id = j.task_id AND t.identifier = 'fan-out-events' AND j.payload::jsonb ? 'eventIds'
  $sql$;
END $$;
