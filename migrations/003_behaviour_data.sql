-- Behaviour data: people, their devices, events and what derives from them (sessions, installs,
-- message interactions, daily rollups), user tags, and the custom event catalogue.
--
-- Every table is keyed by app_id first, so the data of one app stays together and the tables can
-- be distributed by app (Citus: distribution column app_id) without rewriting queries. Time-series
-- tables are range-partitioned by month on their time column; partitions are created on demand by
-- gd_ensure_month_partitions() (the ingestion path calls it for the months of each batch).

-- People: one row per user of an app, anonymous (a device seen without a customer id) or known.
-- When an anonymous person identifies as a known one, their devices and events move to the known
-- person and the anonymous row keeps merged_into (so old references still resolve).
CREATE SEQUENCE people_id_seq;
CREATE TABLE people (
  app_id           uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  id               bigint NOT NULL DEFAULT nextval('people_id_seq'),
  customer_id      text,
  email            text,
  device_id        text,            -- the last device's SDK id (user field device_id)
  os               text,
  os_version       text,
  ip               inet,
  carrier          text,
  app_version      text,
  sdk_version      text,
  install_at       timestamptz,
  uninstall_at     timestamptz,
  registered_at    timestamptz,
  first_login_at   timestamptz,
  last_login_at    timestamptz,
  last_session_at  timestamptz,
  first_purchase_at timestamptz,
  last_purchase_at timestamptz,
  conversions      integer NOT NULL DEFAULT 0,
  revenue          numeric(18,4) NOT NULL DEFAULT 0,
  latitude         double precision,
  longitude        double precision,
  country          text,            -- ISO 3166-1 alpha-2
  state            text,
  city             text,
  inactive         boolean NOT NULL DEFAULT false,
  referrer_id      text,
  from_campaign    text,
  from_source      text,
  birthday         date,
  attributes       jsonb NOT NULL DEFAULT '{}',
  merged_into      bigint,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, id)
);
CREATE UNIQUE INDEX people_customer ON people (app_id, customer_id) WHERE customer_id IS NOT NULL AND merged_into IS NULL;
CREATE INDEX people_email ON people (app_id, lower(email)) WHERE email IS NOT NULL;
CREATE INDEX people_created ON people (app_id, created_at);

-- Devices: the SDK's install id (device_key, id type "auto") and the advertising/vendor ids.
CREATE SEQUENCE devices_id_seq;
CREATE TABLE devices (
  app_id        uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  id            bigint NOT NULL DEFAULT nextval('devices_id_seq'),
  device_key    text NOT NULL,
  person_id     bigint NOT NULL,
  idfa          text,
  idfv          text,
  gaid          text,
  oaid          text,
  push_token    text,
  push_enabled  boolean,
  os            text,
  os_version    text,
  app_version   text,
  sdk_version   text,
  model         text,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, id),
  UNIQUE (app_id, device_key)
);
CREATE INDEX devices_person ON devices (app_id, person_id);
CREATE INDEX devices_idfa ON devices (app_id, idfa) WHERE idfa IS NOT NULL;
CREATE INDEX devices_idfv ON devices (app_id, idfv) WHERE idfv IS NOT NULL;
CREATE INDEX devices_gaid ON devices (app_id, gaid) WHERE gaid IS NOT NULL;
CREATE INDEX devices_oaid ON devices (app_id, oaid) WHERE oaid IS NOT NULL;
CREATE INDEX devices_push_token ON devices (app_id, push_token) WHERE push_token IS NOT NULL;

-- Client-generated event ids already stored, so a resent batch stores nothing twice. Kept apart
-- from the partitioned events table because a unique index there would have to include the event
-- time, and a clamped far-future time is not reproducible on resend.
CREATE TABLE event_ids (
  app_id      uuid NOT NULL,
  client_id   text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, client_id)
);

-- Events: everything an app sends, built-in (gd_ prefix) and custom. Breakdown dimensions (source,
-- country, os, app_version) are copied onto the row as they were when the event happened.
CREATE TABLE events (
  app_id      uuid NOT NULL,
  event_time  timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  client_id   text NOT NULL,
  person_id   bigint NOT NULL,
  device_id   bigint NOT NULL,
  name        text NOT NULL,
  properties  jsonb NOT NULL DEFAULT '{}',
  revenue     numeric(18,4),
  currency    char(3),
  source      text,
  campaign    text,
  session_id  text,
  country     text,
  os          text,
  app_version text
) PARTITION BY RANGE (event_time);
CREATE INDEX events_app_name_time ON events (app_id, name, event_time);
CREATE INDEX events_app_person_time ON events (app_id, person_id, event_time);

-- Sessions, from start_session / end_session events (a session id in the event, else the event id).
CREATE TABLE sessions (
  app_id      uuid NOT NULL,
  started_at  timestamptz NOT NULL,
  session_id  text NOT NULL,
  person_id   bigint NOT NULL,
  device_id   bigint NOT NULL,
  ended_at    timestamptz,
  PRIMARY KEY (app_id, started_at, session_id)
) PARTITION BY RANGE (started_at);
CREATE INDEX sessions_person ON sessions (app_id, person_id, started_at);
CREATE INDEX sessions_id ON sessions (app_id, session_id);

-- Installs, reinstalls and uninstalls.
CREATE TABLE lifecycle_events (
  app_id      uuid NOT NULL,
  event_time  timestamptz NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('install','reinstall','uninstall')),
  person_id   bigint NOT NULL,
  device_id   bigint NOT NULL,
  source      text,
  campaign    text,
  country     text,
  os          text
) PARTITION BY RANGE (event_time);
CREATE INDEX lifecycle_app_kind_time ON lifecycle_events (app_id, kind, event_time);
CREATE INDEX lifecycle_person ON lifecycle_events (app_id, person_id, event_time);

-- Message interactions reported by the SDK (impression, click, open, dismissed_click).
CREATE TABLE message_interactions (
  app_id      uuid NOT NULL,
  event_time  timestamptz NOT NULL,
  client_id   text NOT NULL,
  person_id   bigint NOT NULL,
  device_id   bigint NOT NULL,
  channel     text NOT NULL CHECK (channel IN ('push','inapp','email','native')),
  kind        text NOT NULL CHECK (kind IN ('impression','click','open','dismissed_click')),
  campaign_id text,
  message_id  text,
  journey_id  text
) PARTITION BY RANGE (event_time);
CREATE INDEX interactions_person ON message_interactions (app_id, person_id, event_time);
CREATE INDEX interactions_message ON message_interactions (app_id, message_id, kind, event_time);

-- Daily counts per event and breakdown dimension, in the app's time zone, kept by ingestion in
-- the same transaction as the events. '' stands for a missing value (shown as "(empty)").
-- A change of the app's time zone rebuilds the app's rows (gd_rebuild_event_rollup).
CREATE TABLE event_daily (
  app_id      uuid NOT NULL,
  day         date NOT NULL,
  name        text NOT NULL,
  source      text NOT NULL DEFAULT '',
  country     text NOT NULL DEFAULT '',
  os          text NOT NULL DEFAULT '',
  app_version text NOT NULL DEFAULT '',
  events      bigint NOT NULL,
  revenue     numeric(20,4) NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, name, day, source, country, os, app_version)
);

-- Tags: user tags (values per person) and audience tags, typed text, number or date.
CREATE TABLE tags (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  app_id      uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name        text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('user_tag','audience_tag')),
  value_type  text NOT NULL CHECK (value_type IN ('text','number','date')),
  description text,
  created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_app_kind_name ON tags (app_id, kind, lower(name));

CREATE TABLE person_tags (
  app_id       uuid NOT NULL,
  person_id    bigint NOT NULL,
  tag_id       uuid NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  value_text   text,
  value_number numeric,
  value_date   date,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, person_id, tag_id),
  FOREIGN KEY (app_id, person_id) REFERENCES people (app_id, id) ON DELETE CASCADE
);
CREATE INDEX person_tags_tag ON person_tags (app_id, tag_id);

-- Custom event catalogue (/manage/events): labels and conversion types. Built-in events are not
-- stored here; their labels come from the i18n catalogues.
CREATE TABLE event_definitions (
  app_id          uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name            text NOT NULL,
  label           text,
  conversion_type text,
  hidden          boolean NOT NULL DEFAULT false,
  first_seen_at   timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, name)
);

-- Creates the monthly partitions of the time-series tables that cover [from, to], once.
CREATE FUNCTION gd_ensure_month_partitions(p_from timestamptz, p_to timestamptz) RETURNS void
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
        IF to_regclass(format('%s_%s', t, to_char(m, 'YYYY_MM'))) IS NULL THEN
          EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
            t || '_' || to_char(m, 'YYYY_MM'), t,
            (m::timestamp AT TIME ZONE 'UTC'), ((m + interval '1 month')::timestamp AT TIME ZONE 'UTC'));
        END IF;
      END IF;
    END LOOP;
    m := (m + interval '1 month')::date;
  END LOOP;
END $$;

-- Recomputes an app's daily rollup from its events (after a time zone change, or a repair).
CREATE FUNCTION gd_rebuild_event_rollup(p_app uuid) RETURNS void
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
END $$;
