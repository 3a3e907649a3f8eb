-- Messages (/communication/messaging): campaigns of messages, each message a co-edited Yjs document
-- (documents table) with a lifecycle (shared message/lifecycle.ts), submissions frozen for approval,
-- approvals and rejections, comments, immutable approved versions, and a history of everything.

-- The account's approval policy: how many distinct approvers a submission needs, and whether the
-- author of a message may be one of them.
ALTER TABLE accounts
  ADD COLUMN approvals_required integer NOT NULL DEFAULT 1 CHECK (approvals_required BETWEEN 1 AND 10),
  ADD COLUMN authors_may_approve boolean NOT NULL DEFAULT false;

CREATE TABLE campaigns (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id      uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name        text NOT NULL,
  created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX campaigns_app_name ON campaigns (app_id, lower(name)) WHERE deleted_at IS NULL;

CREATE TABLE messages (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id         uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id             uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  campaign_id        uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  name               text NOT NULL,
  type               text NOT NULL,
  origin             text NOT NULL CHECK (origin IN ('classic','automaticRule','automaticJourney')),
  status             text NOT NULL DEFAULT 'Draft' CHECK (status IN
                       ('Active','Approved','Deleted','Draft','Finished','Paused','Processing','Ready','Scheduled','Testing','To validate','Sending')),
  doc_name           text NOT NULL UNIQUE,
  -- Who created it (document access) and who owns it now (owner-only permissions; assign changes it).
  created_by         uuid REFERENCES users(id) ON DELETE SET NULL,
  owner_id           uuid REFERENCES users(id) ON DELETE SET NULL,
  approved_version   integer,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  status_changed_at  timestamptz NOT NULL DEFAULT now(),
  -- Set with status Deleted: the message is kept for its history, gone from lists and documents.
  deleted_at         timestamptz
);
CREATE UNIQUE INDEX messages_campaign_name ON messages (campaign_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX messages_app ON messages (app_id, updated_at DESC) WHERE deleted_at IS NULL;

-- A submission freezes the live draft: what approvers review and what approval commits.
CREATE TABLE message_submissions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  message_id    uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  number        integer NOT NULL,
  definition    jsonb NOT NULL,
  yjs_state     bytea NOT NULL,
  state_vector  bytea NOT NULL,
  sha256        text NOT NULL,
  submitted_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  submitted_at  timestamptz NOT NULL DEFAULT now(),
  outcome       text NOT NULL DEFAULT 'open' CHECK (outcome IN ('open','approved','rejected','withdrawn','superseded')),
  closed_at     timestamptz,
  UNIQUE (message_id, number)
);
-- At most one open submission per message.
CREATE UNIQUE INDEX message_submissions_open ON message_submissions (message_id) WHERE outcome = 'open';

CREATE FUNCTION forbid_snapshot_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.definition IS DISTINCT FROM OLD.definition OR NEW.yjs_state IS DISTINCT FROM OLD.yjs_state
     OR NEW.state_vector IS DISTINCT FROM OLD.state_vector OR NEW.sha256 IS DISTINCT FROM OLD.sha256 THEN
    RAISE EXCEPTION 'submitted snapshots are immutable';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER message_submissions_frozen BEFORE UPDATE ON message_submissions
  FOR EACH ROW EXECUTE FUNCTION forbid_snapshot_change();

-- One decision per person and submission: two clicks, two tabs, two approvers at once each count once.
CREATE TABLE message_decisions (
  submission_id  uuid NOT NULL REFERENCES message_submissions(id) ON DELETE CASCADE,
  user_id        uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  decision       text NOT NULL CHECK (decision IN ('approve','reject')),
  reason         text,
  at             timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (submission_id, user_id)
);

CREATE TABLE message_comments (
  id             bigserial PRIMARY KEY,
  message_id     uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  submission_id  uuid NOT NULL REFERENCES message_submissions(id) ON DELETE CASCADE,
  author_id      uuid REFERENCES users(id) ON DELETE SET NULL,
  path           text NOT NULL DEFAULT '',
  variant_id     text,
  body           text NOT NULL,
  at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_comments_submission ON message_comments (submission_id, at);

-- Approved versions: append-only, the submission's snapshot as approved.
CREATE TABLE message_versions (
  message_id     uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  version        integer NOT NULL,
  submission_id  uuid NOT NULL REFERENCES message_submissions(id),
  definition     jsonb NOT NULL,
  yjs_state      bytea NOT NULL,
  state_vector   bytea NOT NULL,
  sha256         text NOT NULL,
  approved_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (message_id, version)
);
CREATE FUNCTION forbid_message_version_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'message versions are immutable';
END $$;
CREATE TRIGGER message_versions_immutable BEFORE UPDATE ON message_versions
  FOR EACH ROW EXECUTE FUNCTION forbid_message_version_update();

CREATE TABLE message_events (
  id             bigserial PRIMARY KEY,
  message_id     uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  kind           text NOT NULL CHECK (kind IN ('created','status','submitted','approved','rejected','commented','versioned','assigned','cloned','renamed')),
  actor_id       uuid REFERENCES users(id) ON DELETE SET NULL,
  from_status    text,
  to_status      text,
  submission_id  uuid REFERENCES message_submissions(id) ON DELETE SET NULL,
  version        integer,
  detail         text,
  at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_events_message ON message_events (message_id, at DESC, id DESC);

-- Snapshots are large (a message with ten variants in five languages and 200 KB e-mail bodies
-- holds about 10 MB of text, twice: definition and Yjs state). lz4 compresses them about 4 times
-- faster than the default pglz; a build without lz4 (the embedded database) keeps pglz.
DO $$
BEGIN
  ALTER TABLE message_submissions ALTER COLUMN definition SET COMPRESSION lz4, ALTER COLUMN yjs_state SET COMPRESSION lz4;
  ALTER TABLE message_versions ALTER COLUMN definition SET COMPRESSION lz4, ALTER COLUMN yjs_state SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  RAISE NOTICE 'lz4 is not available: snapshots keep the default compression';
END $$;
