-- 1. Two batches for a new month can race to create its partitions: the advisory lock serialises
--    them, but the second session's catalogue cache may not see the first one's table yet, so
--    CREATE can still meet "already exists". That is success: swallow duplicate_table.
-- 2. The people screen's "recently seen" list reads an app's devices by last_seen_at without
--    scanning them all (prefix searches already range-scan people_customer and people_email).

CREATE OR REPLACE FUNCTION gd_ensure_month_partitions(p_from timestamptz, p_to timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', p_from AT TIME ZONE 'UTC')::date;
  last date := date_trunc('month', p_to AT TIME ZONE 'UTC')::date;
  t text;
BEGIN
  WHILE m <= last LOOP
    FOREACH t IN ARRAY ARRAY['events','sessions','lifecycle_events','message_interactions'] LOOP
      IF to_regclass(format('%s_%s', t, to_char(m, 'YYYY_MM'))) IS NULL THEN
        PERFORM pg_advisory_xact_lock(hashtext('gd_partition_' || t || m::text));
        BEGIN
          EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
            t || '_' || to_char(m, 'YYYY_MM'), t,
            (m::timestamp AT TIME ZONE 'UTC'), ((m + interval '1 month')::timestamp AT TIME ZONE 'UTC'));
        EXCEPTION WHEN duplicate_table OR unique_violation THEN
          NULL; -- created meanwhile by another session
        END;
      END IF;
    END LOOP;
    m := (m + interval '1 month')::date;
  END LOOP;
END $$;

CREATE INDEX devices_last_seen ON devices (app_id, last_seen_at DESC);
