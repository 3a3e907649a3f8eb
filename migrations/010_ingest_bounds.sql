-- Ingestion never creates tables (issue: any app key could make the database create a monthly
-- partition per month of event time it sent). Months are created ahead by a job
-- (api-server/src/features/ingest/partitions.ts); a row whose month has no partition lands in the
-- table's DEFAULT partition, and event times are bounded (two years before the app's creation,
-- one hour ahead: shared/src/schemas/ingest.ts).
CREATE TABLE events_default PARTITION OF events DEFAULT;
CREATE TABLE sessions_default PARTITION OF sessions DEFAULT;
CREATE TABLE lifecycle_events_default PARTITION OF lifecycle_events DEFAULT;
CREATE TABLE message_interactions_default PARTITION OF message_interactions DEFAULT;

-- Creating a month's partition while the DEFAULT partition holds rows of that month would fail:
-- those rows move into the new partition, in the same transaction, before it is attached.
CREATE OR REPLACE FUNCTION gd_ensure_month_partitions(p_from timestamptz, p_to timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', p_from AT TIME ZONE 'UTC')::date;
  last date := date_trunc('month', p_to AT TIME ZONE 'UTC')::date;
  t text;
  part text;
  k text;
  lo timestamptz;
  hi timestamptz;
  crowded boolean;
BEGIN
  WHILE m <= last LOOP
    lo := m::timestamp AT TIME ZONE 'UTC';
    hi := (m + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    FOREACH t IN ARRAY ARRAY['events','sessions','lifecycle_events','message_interactions'] LOOP
      part := t || '_' || to_char(m, 'YYYY_MM');
      IF to_regclass(part) IS NULL THEN
        PERFORM pg_advisory_xact_lock(hashtext('gd_partition_' || t || m::text));
        IF to_regclass(part) IS NULL THEN
          k := substring(pg_get_partkeydef(t::regclass) FROM '\((\w+)\)');
          EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= %L AND %I < %L)', t || '_default', k, lo, k, hi) INTO crowded;
          IF NOT crowded THEN
            BEGIN
              EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, t, lo, hi);
            EXCEPTION WHEN duplicate_table OR unique_violation THEN
              NULL; -- created meanwhile by another session
            END;
          ELSE
            EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, t);
            EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
              t || '_default', k, lo, k, hi, part);
            EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', t, part, lo, hi);
          END IF;
        END IF;
      END IF;
    END LOOP;
    m := (m + interval '1 month')::date;
  END LOOP;
END $$;
