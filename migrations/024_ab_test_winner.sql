-- An A/B test's hold-out and its winner (issue 13; shared message/abTest.ts, api-server
-- features/abAnalysis). A live run of an A/B test with a test portion under 100% writes only the
-- people of its portion; `held_back` counts the others as the resolver passes them. Sending the
-- winner creates one run of kind 'winner' for that live run (`parent_id`), which writes exactly
-- the people the live run held back, all with the winning variant (`variant_id`). The unique
-- index makes it once per live run whatever the number of clicks, tabs or API processes.
ALTER TABLE message_sends DROP CONSTRAINT message_sends_kind_check;
ALTER TABLE message_sends ADD CONSTRAINT message_sends_kind_check CHECK (kind IN ('live', 'test', 'winner'));
ALTER TABLE message_sends ADD COLUMN parent_id uuid REFERENCES message_sends(id) ON DELETE CASCADE;
ALTER TABLE message_sends ADD COLUMN variant_id text;
ALTER TABLE message_sends ADD COLUMN held_back integer NOT NULL DEFAULT 0;
ALTER TABLE message_sends ADD CONSTRAINT message_sends_winner_of CHECK (kind <> 'winner' OR (parent_id IS NOT NULL AND variant_id IS NOT NULL));
CREATE UNIQUE INDEX message_sends_winner ON message_sends (parent_id) WHERE kind = 'winner';
