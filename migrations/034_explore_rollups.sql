-- Explore at full speed (issue 15, piece E): structures kept by ingestion in the same statement as
-- the events, so distinct people and property breakdowns over millions of events are index range
-- scans instead of scans of the events table. Days and months are the app's time zone, like
-- event_daily; a change of time zone rebuilds them (gd_rebuild_event_rollup, replaced below).

-- One row per person, event and month: bit d-1 of `days` is set when the person sent the event on
-- day d of that month. name '' = any event. `added` holds the bits the last write turned on
-- (ingestion and merges read it back with RETURNING: ON CONFLICT's update sees the latest locked
-- row, so counting only those bits is exact however batches of one person interleave).
CREATE TABLE event_person_months (
  app_id    uuid NOT NULL,
  name      text NOT NULL,
  month     date NOT NULL,
  person_id bigint NOT NULL,
  days      integer NOT NULL,
  added     integer NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, name, month, person_id)
);

-- Distinct people per event and day, counted when a person's bit for that day goes from 0 to 1
-- (and taken back when a merge folds two people who both had it into one).
CREATE TABLE event_people_daily (
  app_id uuid NOT NULL,
  name   text NOT NULL,
  day    date NOT NULL,
  people bigint NOT NULL,
  PRIMARY KEY (app_id, name, day)
);

-- Event properties marked "breakdown" in the event catalogue (/manage/events). Ingestion counts
-- the events of batches received at or after `since`; the backfill job counts those received
-- before and sets `backfilled_at`. Until then explore reads the events table for the property.
CREATE TABLE event_breakdowns (
  app_id        uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name          text NOT NULL,
  property      text NOT NULL,
  since         timestamptz NOT NULL,
  backfilled_at timestamptz,
  created_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  -- the backfill is a durable job (api-server/src/jobs): this row is its job row
  id            uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  queue         text NOT NULL DEFAULT 'default',
  run_at        timestamptz NOT NULL DEFAULT now(),
  attempts      integer NOT NULL DEFAULT 0,
  max_attempts  integer NOT NULL DEFAULT 5,
  locked_by     text,
  locked_until  timestamptz,
  error         text,
  PRIMARY KEY (app_id, name, property)
);
CREATE INDEX event_breakdowns_due ON event_breakdowns (queue, run_at) WHERE backfilled_at IS NULL;

-- Events and revenue per day, event, marked property and value ('' = missing or null, shown
-- "(empty)"), the property breakdown rollup.
CREATE TABLE event_property_daily (
  app_id   uuid NOT NULL,
  name     text NOT NULL,
  property text NOT NULL,
  day      date NOT NULL,
  value    text NOT NULL,
  events   bigint NOT NULL,
  revenue  numeric(20,4) NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, name, property, day, value)
);

-- The person-month bitmaps and distinct people per day of an app from its events. Shared by the
-- rebuild and by the benchmark data set loader (the same SQL as a time zone change runs).
CREATE FUNCTION gd_fill_person_months(p_app uuid, p_tz text) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO event_person_months (app_id, name, month, person_id, days, added)
  SELECT p_app, k.name, k.month, k.person_id, k.days, k.days FROM (
    SELECT g.name, g.month, g.person_id, bit_or(g.bit) AS days FROM (
      SELECT CASE WHEN x.all_events THEN '' ELSE d.name END AS name, date_trunc('month', d.day)::date AS month, d.person_id,
             1 << (extract(day FROM d.day)::int - 1) AS bit
        FROM (SELECT DISTINCT name, person_id, (event_time AT TIME ZONE p_tz)::date AS day FROM events WHERE app_id = p_app) d
        CROSS JOIN (VALUES (false), (true)) x(all_events)
    ) g GROUP BY g.name, g.month, g.person_id
  ) k;
  INSERT INTO event_people_daily (app_id, name, day, people)
  SELECT p_app, m.name, m.month + b.i, count(*)
    FROM event_person_months m CROSS JOIN generate_series(0, 30) b(i)
   WHERE m.app_id = p_app AND m.days & (1 << b.i) <> 0
   GROUP BY m.name, m.month + b.i;
$$;

-- Recomputes an app's rollups from its events (after a time zone change, or a repair): the daily
-- rollup, the person-month bitmaps, distinct people per day, and the property breakdowns (all of
-- the app's marks, counted over all events: a mark still waiting for its backfill is complete
-- after this, so it is marked backfilled and its job skips).
CREATE OR REPLACE FUNCTION gd_rebuild_event_rollup(p_app uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE tz text;
BEGIN
  SELECT timezone INTO tz FROM apps WHERE id = p_app;
  DELETE FROM event_daily WHERE app_id = p_app;
  INSERT INTO event_daily (app_id, day, name, source, country, os, app_version, events, revenue)
  SELECT app_id, (event_time AT TIME ZONE tz)::date, name, coalesce(source, ''), coalesce(country, ''),
         coalesce(os, ''), coalesce(app_version, ''), count(*), coalesce(sum(revenue), 0)
    FROM events WHERE app_id = p_app
   GROUP BY 1, 2, 3, 4, 5, 6, 7;
  DELETE FROM event_person_months WHERE app_id = p_app;
  DELETE FROM event_people_daily WHERE app_id = p_app;
  PERFORM gd_fill_person_months(p_app, tz);
  DELETE FROM event_property_daily WHERE app_id = p_app;
  INSERT INTO event_property_daily (app_id, name, property, day, value, events, revenue)
  SELECT p_app, e.name, b.property, (e.event_time AT TIME ZONE tz)::date, coalesce(e.properties ->> b.property, ''),
         count(*), coalesce(sum(e.revenue), 0)
    FROM event_breakdowns b JOIN events e ON e.app_id = p_app AND e.name = b.name
   WHERE b.app_id = p_app
   GROUP BY 2, 3, 4, 5;
  UPDATE event_breakdowns SET backfilled_at = now(), locked_by = NULL, locked_until = NULL
   WHERE app_id = p_app AND backfilled_at IS NULL;
END $$;
