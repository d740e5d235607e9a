-- The planner takes a set-returning function without a ROWS clause to return
-- 1,000 rows. The API's one statement per request (server/api/admission.ts)
-- joins the page laterally to api_admission_preview and api_admit, each of
-- which returns at most one row, so a page of 25 candidates was estimated at
-- over a million: past jit_above_cost (100,000) and jit_optimize_above_cost
-- (500,000), where a stock PostgreSQL with JIT (Debian's, most container
-- images) spent 1.5 s compiling a statement that runs in 2 ms. Honest
-- estimates keep every hot statement far below both; tests/api/query-plans.test.ts
-- checks each one's cost, and on a server that can JIT, that none is compiled.
--
-- COST is in units of cpu_operator_cost (0.0025): api_admit reads a key and
-- its company and writes at most three rows by index (about two planner
-- units, 800); the preview reads the same key and two buckets (400).
ALTER FUNCTION api_admission_preview(text, integer, integer) ROWS 1 COST 400;
--> statement-breakpoint
ALTER FUNCTION api_admit(text, integer, integer) ROWS 1 COST 800;
