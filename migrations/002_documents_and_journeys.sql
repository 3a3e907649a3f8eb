-- Collaborative documents (Yjs state per document name) and journeys with immutable launched versions.

-- One row per Yjs document: the full encoded state, written by the sync server (debounced, on the
-- last disconnect and on shutdown). Names are "<accountId>/<appId>/<kind>/<entityId>".
CREATE TABLE documents (
  name         text PRIMARY KEY,
  account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id       uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('journey','segment','message')),
  entity_id    uuid NOT NULL,
  state        bytea NOT NULL,
  size_bytes   integer NOT NULL,
  store_count  bigint NOT NULL DEFAULT 1,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX documents_entity ON documents (kind, entity_id);

CREATE TABLE journeys (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id       uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name         text NOT NULL,
  doc_name     text NOT NULL UNIQUE,
  status       text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','live','stopped')),
  live_version integer,
  created_by   uuid REFERENCES users(id) ON DELETE SET NULL,
  assigned_to  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE UNIQUE INDEX journeys_app_name ON journeys (app_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX journeys_app ON journeys (app_id, created_at DESC) WHERE deleted_at IS NULL;

-- Launched versions: append-only. The definition is what the worker runs; the Yjs state and state
-- vector record exactly which edits it contains ("changed since launch?").
CREATE TABLE journey_versions (
  journey_id   uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  version      integer NOT NULL,
  definition   jsonb NOT NULL,
  yjs_state    bytea NOT NULL,
  state_vector bytea NOT NULL,
  sha256       text NOT NULL,
  launched_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  launched_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (journey_id, version)
);

CREATE FUNCTION forbid_version_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'journey versions are immutable';
END $$;
CREATE TRIGGER journey_versions_immutable BEFORE UPDATE ON journey_versions
  FOR EACH ROW EXECUTE FUNCTION forbid_version_update();

CREATE TABLE journey_events (
  id          bigserial PRIMARY KEY,
  journey_id  uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('created','launched','stopped','renamed','cloned','deleted')),
  version     integer,
  actor_id    uuid REFERENCES users(id) ON DELETE SET NULL,
  at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX journey_events_journey ON journey_events (journey_id, at DESC);
