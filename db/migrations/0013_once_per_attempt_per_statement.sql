-- The once-per-attempt slots (events_once_per_attempt, migration 0012) are
-- taken once per INSERT statement instead of once per row: a bulk import's
-- statement of thousands of events takes all its slots in one set-based
-- insert (the row trigger cost a bulk import 14 to 19% of its time).
--
-- The rule is the same: an event of a once-per-attempt type whose
-- (candidate, type) slot belongs to another event fails the statement with a
-- unique violation on events_once_per_attempt_key, two of them in one
-- statement included; a concurrent writer of the same slot waits for the
-- first transaction to end (ON CONFLICT), then fails if it committed. Rows
-- moved out of the DEFAULT partition are inserted into their day's partition
-- directly, which fires no trigger of the parent's: they keep their slots.
DROP TRIGGER "events_once_per_attempt" ON "events";--> statement-breakpoint
DROP FUNCTION events_once_per_attempt();--> statement-breakpoint
CREATE FUNCTION events_once_per_attempt() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  taken record;
BEGIN
  INSERT INTO events_once_per_attempt (candidate_id, type, event_id)
  SELECT candidate_id, type, id FROM inserted_events
  WHERE type IN ('candidate.submitted', 'candidate.scored', 'candidate.ready')
  ON CONFLICT (candidate_id, type) DO NOTHING;
  SELECT i.candidate_id, i.type INTO taken
  FROM inserted_events i JOIN events_once_per_attempt o ON o.candidate_id = i.candidate_id AND o.type = i.type
  WHERE o.event_id <> i.id
  LIMIT 1;
  IF FOUND THEN
    RAISE unique_violation USING
      MESSAGE = 'duplicate key value violates unique constraint "events_once_per_attempt_key"',
      DETAIL = format('Key (candidate_id, type)=(%s, %s) already exists.', taken.candidate_id, taken.type),
      CONSTRAINT = 'events_once_per_attempt_key', TABLE = 'events';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_once_per_attempt" AFTER INSERT ON "events"
  REFERENCING NEW TABLE AS inserted_events
  FOR EACH STATEMENT EXECUTE FUNCTION events_once_per_attempt();
