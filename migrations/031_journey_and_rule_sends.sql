-- Sends of journeys and automatic rules (issue 14), and the trigger inbox that ingestion fills.
--
-- A journey's message step or a rule sends one person at a time through the same outbox as every
-- message (features/delivery/enqueue.ts): on the message's standing run, one per message version
-- and kind (`journey` or `rule`), which never resolves an audience (rows come one by one from the
-- engine, each with its own idempotency key) and never finishes while the message may send.
ALTER TABLE message_sends DROP CONSTRAINT message_sends_kind_check;
ALTER TABLE message_sends ADD CONSTRAINT message_sends_kind_check CHECK (kind IN ('live', 'test', 'winner', 'journey', 'rule'));
CREATE UNIQUE INDEX message_sends_standing ON message_sends (message_id, version, kind) WHERE kind IN ('journey', 'rule');

-- The journey entry, journey and step a row was sent for: exit and stop cancel an entry's queued
-- rows, and the SDK reports interactions with the journey and step they answer.
ALTER TABLE message_outbox ADD COLUMN journey_entry_id bigint;
ALTER TABLE message_outbox ADD COLUMN journey_id uuid;
ALTER TABLE message_outbox ADD COLUMN step_id text;
CREATE INDEX message_outbox_journey_entry ON message_outbox (journey_entry_id) WHERE journey_entry_id IS NOT NULL AND status = 'queued';

-- What the engines want to hear about: event names per app and consumer (`journeys`, `rules`);
-- `$interaction` stands for every message interaction. Each consumer rewrites its own rows.
CREATE TABLE trigger_interests (
  app_id    uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  consumer  text NOT NULL CHECK (consumer IN ('journeys', 'rules')),
  name      text NOT NULL,
  PRIMARY KEY (app_id, consumer, name)
);

-- Ingestion writes, in the batch's own transaction, one row per interested consumer for each new
-- event or interaction, so nothing ingested is missed by a crash. Consumers lease their rows (FOR
-- UPDATE SKIP LOCKED), act, and delete them in one transaction.
CREATE TABLE trigger_inbox (
  id          bigserial PRIMARY KEY,
  consumer    text NOT NULL,
  app_id      uuid NOT NULL,
  person_id   bigint NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('event', 'interaction')),
  -- The event name, or the interaction kind (impression, click, open, dismissed_click).
  name        text NOT NULL,
  at          timestamptz NOT NULL,
  properties  jsonb NOT NULL DEFAULT '{}',
  client_id   text NOT NULL,
  -- Interactions: the message, journey and step they answer.
  message_id  text,
  journey_id  text,
  step_id     text,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trigger_inbox_consumer ON trigger_inbox (consumer, id);
