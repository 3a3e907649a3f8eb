-- Reads of the message analytics (api-server/src/features/messageAnalytics/):
--
-- * The messages report finds the messages interacted with in its range by app and time; the
--   existing interaction indexes lead with the person or the message. Partitioned by event_time,
--   so Postgres also prunes the months outside the range. message_id is included so the scan
--   needs no heap fetch (created on the parent: every partition gets it).
CREATE INDEX interactions_app_time ON message_interactions (app_id, event_time, message_id);

-- * Interactions and redemptions of people who only ever got test sends of a message (test
--   devices) do not count: for each (message, person) with a test row, whether a live row exists.
--   The test rows are few; this index answers the question without reading the message's outbox.
CREATE INDEX message_outbox_message_person ON message_outbox (message_id, person_id) WHERE NOT test;
