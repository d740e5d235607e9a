-- A day made ahead takes the storage parameters (autovacuum settings,
-- fillfactor) of its table's newest day, so a setting made on the days there
-- are stays on the days to come. PostgreSQL keeps none on a partitioned
-- table, and a new partition started with the defaults: the README's advice
-- on vacuuming the delivery log lasted a week.
CREATE OR REPLACE FUNCTION history_partition_create(p_parent text, p_column text, p_day date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  suffix text := to_char(p_day, 'YYYYMMDD');
  part text := p_parent || '_' || suffix;
  fallback text := p_parent || '_default';
  low timestamptz := p_day::timestamp AT TIME ZONE 'UTC';
  high timestamptz := (p_day + 1)::timestamp AT TIME ZONE 'UTC';
  waiting boolean;
  newest_options text[];
BEGIN
  IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', p_parent);
  IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
  SELECT c.reloptions INTO newest_options
  FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
  WHERE h.inhparent = p_parent::regclass AND c.relname ~ ('^' || p_parent || '_\d{8}$')
  ORDER BY c.relname DESC LIMIT 1;
  EXECUTE format('SELECT EXISTS (SELECT FROM %I WHERE %I >= %L AND %I < %L)', fallback, p_column, low, p_column, high) INTO waiting;
  IF waiting THEN
    EXECUTE format('CREATE TEMP TABLE history_partition_moving ON COMMIT DROP AS WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) SELECT * FROM moved',
      fallback, p_column, low, p_column, high);
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, p_parent, low, high);
  IF newest_options IS NOT NULL THEN
    EXECUTE format('ALTER TABLE %I SET (%s)', part, array_to_string(newest_options, ', '));
  END IF;
  PERFORM history_partition_name_indexes(part::regclass, suffix);
  IF waiting THEN
    EXECUTE format('INSERT INTO %I SELECT * FROM history_partition_moving', part);
    DROP TABLE history_partition_moving;
  END IF;
  RETURN true;
END $$;
