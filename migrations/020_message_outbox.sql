-- The send pipeline of messages (issue 13; api-server/src/features/delivery/).
--
-- message_sends: one run of an approved version to its target. `play` creates the live run of a
-- version once (playing again after a pause continues the same run); every `test` creates a test
-- run to the app's test devices. The resolver turns the target into outbox rows page by page,
-- ordered by person id: `cursor` is the last person id written, moved in the same transaction as
-- the page's rows, so a crash resumes after the last committed page and never holds the audience
-- in memory.
CREATE TABLE message_sends (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id    uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id        uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  message_id    uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  -- The approved version a live run sends; a test of a draft has none and sends the draft as read then.
  version       integer,
  -- What the run sends (the version's definition, or the tested draft), read by every worker.
  definition    jsonb NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('live', 'test')),
  origin        text NOT NULL CHECK (origin IN ('classic', 'automaticRule', 'automaticJourney')),
  state         text NOT NULL DEFAULT 'resolving' CHECK (state IN ('resolving', 'sending', 'finished')),
  -- Nothing goes out before (the schedule's first send, as an instant).
  not_before    timestamptz NOT NULL DEFAULT now(),
  cursor        bigint NOT NULL DEFAULT 0,
  resolved      integer NOT NULL DEFAULT 0,
  locked_by     text,
  locked_until  timestamptz,
  created_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  resolved_at   timestamptz,
  finished_at   timestamptz,
  FOREIGN KEY (message_id, version) REFERENCES message_versions (message_id, version)
);
CREATE UNIQUE INDEX message_sends_live ON message_sends (message_id, version) WHERE kind = 'live';
ALTER TABLE message_sends ADD CONSTRAINT message_sends_live_version CHECK (kind = 'test' OR version IS NOT NULL);
CREATE INDEX message_sends_open ON message_sends (not_before) WHERE state <> 'finished';

-- One row per person, channel address and variant of a run. `idempotency_key` (run, person,
-- channel, address) is unique: a resolver that runs a page twice writes nothing twice. Workers
-- lease due rows (FOR UPDATE SKIP LOCKED), send, and record the outcome on the row.
--   queued   waiting for run_at (quiet hours and local-time waves move it) or a retry
--   sent     the provider accepted it
--   failed   a permanent error for this message (payload, provider misconfigured after retries)
--   retired  the address is gone (unsubscribed, unknown mailbox, unregistered token)
--   skipped  not sent by rule (frequency cap), with the reason in `error`
CREATE TABLE message_outbox (
  id               bigserial PRIMARY KEY,
  send_id          uuid NOT NULL REFERENCES message_sends(id) ON DELETE CASCADE,
  app_id           uuid NOT NULL,
  message_id       uuid NOT NULL,
  person_id        bigint NOT NULL,
  channel          text NOT NULL CHECK (channel IN ('email', 'push', 'inApp')),
  address          text NOT NULL,
  -- A push token's platform (the device's os: iOS goes to APNs, the others to FCM); null for e-mail.
  platform         text,
  variant_id       text NOT NULL,
  language         text NOT NULL,
  -- The person's zone when resolved (frequency caps count per calendar day on their clock).
  time_zone        text NOT NULL,
  test             boolean NOT NULL DEFAULT false,
  idempotency_key  text NOT NULL UNIQUE,
  status           text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'retired', 'skipped')),
  attempts         integer NOT NULL DEFAULT 0,
  run_at           timestamptz NOT NULL,
  locked_by        text,
  locked_until     timestamptz,
  sent_at          timestamptz,
  provider_id      text,
  error            text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_outbox_due ON message_outbox (run_at) WHERE status = 'queued';
CREATE INDEX message_outbox_send ON message_outbox (send_id, status);
CREATE INDEX message_outbox_person ON message_outbox (app_id, person_id, channel, sent_at) WHERE status = 'sent';

-- Addresses that must get no more e-mail from an app (the unsubscribe link, a 5xx for the mailbox).
CREATE TABLE email_suppressions (
  app_id      uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  email       text NOT NULL,
  reason      text NOT NULL CHECK (reason IN ('unsubscribed', 'bounced')),
  at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, email)
);
