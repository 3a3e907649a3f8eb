-- Dashboards (issue 15, piece C): a row per dashboard (its name, window type and creator) and a
-- collaborative document `doc_name` (kind 'dashboard' in `documents`) holding the widgets and their
-- places on the grid (shared/src/docs/dashboardDoc.ts). The sync server looks the row up by id,
-- app_id, account_id, created_by and deleted_at (shared DOC_ENTITY_TABLES).
CREATE TABLE dashboards (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id       uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name         text NOT NULL,
  doc_name     text NOT NULL UNIQUE,
  window_type  text NOT NULL DEFAULT 'week' CHECK (window_type IN ('day', 'week', 'month')),
  created_by   uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE UNIQUE INDEX dashboards_app_name ON dashboards (app_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX dashboards_app ON dashboards (app_id, updated_at DESC) WHERE deleted_at IS NULL;

-- The new document kind.
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check CHECK (kind IN ('journey', 'segment', 'message', 'dashboard'));

