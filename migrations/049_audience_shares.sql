-- Audience shares (issue 17, piece B; shared/src/audienceShare/model.ts): an audience's members
-- uploaded to an ad platform through an integration (migration 047), kept in step after each
-- refresh of the audience.
--
-- status: sync (a run is due or running), ready, error (error_code: the service's catalogue code,
--         error_message the platform's reason), inactive (the integration was disconnected).
-- platform_audience_id: the platform's audience (Meta custom audience id, Google Ads user list
--         resource name, Trade Desk segment name); NULL until the first run creates it.
-- synced_refresh_at: the audience's refreshed_at the last run (successful or not) started from; a
--         refresh after it makes the share due again. due_at: "sync now" or a new share.
-- sync_started_at: the lease of the run going (SKIP LOCKED claim; taken over after 15 minutes).
CREATE TABLE audience_shares (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id           uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id               uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  audience_id          uuid NOT NULL REFERENCES audiences(id) ON DELETE CASCADE,
  integration_id       uuid NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
  service              text NOT NULL,
  entry                text NOT NULL CHECK (entry IN ('social', 'searchAds', 'tradeDesk')),
  platform_audience_id text,
  platform_audience_name text NOT NULL,
  status               text NOT NULL DEFAULT 'sync' CHECK (status IN ('sync', 'ready', 'error', 'inactive')),
  error_code           integer,
  error_message        text,
  uploaded_count       integer NOT NULL DEFAULT 0,
  skipped_count        integer NOT NULL DEFAULT 0,
  last_added           integer,
  last_removed         integer,
  last_synced_at       timestamptz,
  synced_refresh_at    timestamptz,
  due_at               timestamptz DEFAULT now(),
  sync_started_at      timestamptz,
  created_by           uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (audience_id, integration_id)
);
CREATE INDEX audience_shares_app_audience ON audience_shares (app_id, audience_id);
CREATE INDEX audience_shares_integration ON audience_shares (integration_id);

-- What each share uploaded, per person: the platform rows (hashed identifiers, ad ids) as sent, so
-- a person who leaves the audience is removed with exactly those rows, even once their person row
-- is gone (hence no foreign key to people). uploaded_at: when the rows were last sent (platforms
-- whose memberships expire, The Trade Desk, get them again before they do).
CREATE TABLE audience_share_members (
  share_id    uuid NOT NULL REFERENCES audience_shares(id) ON DELETE CASCADE,
  person_id   bigint NOT NULL,
  rows        jsonb NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (share_id, person_id)
);
CREATE INDEX audience_share_members_uploaded ON audience_share_members (share_id, uploaded_at);
