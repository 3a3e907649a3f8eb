-- Segments (audience definitions edited live as Yjs documents) and audiences (a person list with a
-- state, computed from a segment or filled by an import), plus the helpers the segment compiler uses.

-- A segment's content lives in the document `doc_name` (kind 'segment' in `documents`); this row
-- names it and says who created it. The sync server looks entities up by id, app_id, account_id,
-- created_by and deleted_at (sync-server/src/repository.ts ENTITY_TABLES).
CREATE TABLE segments (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id      uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name        text NOT NULL,
  doc_name    text NOT NULL UNIQUE,
  created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX segments_app_name ON segments (app_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX segments_app ON segments (app_id, updated_at DESC) WHERE deleted_at IS NULL;

-- Audiences: SPEC.md section 3 "Audience (import task)" and section 4 states. `definition` is the
-- segment as last evaluated (a snapshot: the segment's document may change or be deleted later);
-- `source_config` holds the fields of the import types (csv, ftp, https, s3, ...). `person_count`
-- and the members are those of the last successful refresh; a failed refresh records its error
-- and leaves both as they were.
CREATE TABLE audiences (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id           uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id               uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name                 text NOT NULL,
  status               text NOT NULL DEFAULT 'new'
                       CHECK (status IN ('new','in_progress','ready','sync','error','inactive')),
  source_type          text NOT NULL
                       CHECK (source_type IN ('csv','csv_dynamic','segment','adobe','ftp','https','s3','performance_report','external','none')),
  segment_id           uuid REFERENCES segments(id) ON DELETE SET NULL,
  definition           jsonb,
  source_config        jsonb NOT NULL DEFAULT '{}',
  is_test              boolean NOT NULL DEFAULT false,
  person_count         bigint,
  refreshed_at         timestamptz,
  refresh_started_at   timestamptz,
  next_refresh_at      timestamptz,
  refresh_every_minutes integer NOT NULL DEFAULT 60 CHECK (refresh_every_minutes BETWEEN 5 AND 10080),
  error_name           text,            -- SPEC.md section 8 names: AudienceNotExist, AudienceNotValid, import errors
  error_message        text,
  created_by           uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  deleted_at           timestamptz
);
CREATE UNIQUE INDEX audiences_app_name ON audiences (app_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX audiences_app ON audiences (app_id, updated_at DESC) WHERE deleted_at IS NULL;
-- The scheduler's claim: due segment audiences, oldest first.
CREATE INDEX audiences_due ON audiences (next_refresh_at)
  WHERE deleted_at IS NULL AND source_type = 'segment' AND status NOT IN ('inactive','in_progress');

-- Members: the people of an audience as of its last refresh (or import). Keyed for "is this person
-- in audience X" (the segment operator is_in_audience probes (app_id, person_id, audience_id)).
CREATE TABLE audience_members (
  app_id      uuid NOT NULL,
  audience_id uuid NOT NULL REFERENCES audiences(id) ON DELETE CASCADE,
  person_id   bigint NOT NULL,
  added_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, audience_id, person_id),
  FOREIGN KEY (app_id, person_id) REFERENCES people (app_id, id) ON DELETE CASCADE
);
CREATE INDEX audience_members_person ON audience_members (app_id, person_id, audience_id);

-- A version string as an integer array for ordering ("1.10.2" > "1.9"): each dot-separated part's
-- leading digits (0 when none). NULL for NULL or ''.
CREATE FUNCTION gd_version_key(v text) RETURNS integer[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN v IS NULL OR btrim(v) = '' THEN NULL ELSE ARRAY(
    SELECT coalesce(substring(part FROM '^[0-9]{1,9}')::integer, 0)
      FROM unnest(string_to_array(btrim(v), '.')) WITH ORDINALITY AS t(part, n) ORDER BY n) END
$$;

-- A JSON value as a number: JSON numbers, and strings that spell a decimal number; else NULL.
CREATE FUNCTION gd_jsonb_numeric(v jsonb) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN jsonb_typeof(v) = 'number' THEN (v #>> '{}')::numeric
    WHEN jsonb_typeof(v) = 'string' AND (v #>> '{}') ~ '^\s*-?[0-9]{1,30}(\.[0-9]{1,30})?\s*$' THEN btrim(v #>> '{}')::numeric
  END
$$;

-- Lower-cased copy of a text array (so case-insensitive matching lowers both sides with the
-- database's own rules; constant-folded when the argument is a parameter).
CREATE FUNCTION gd_lower_all(v text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT lower(x) FROM unnest(v) AS x)
$$;
