-- Recurring messages (issue 13): each occurrence of a recurring schedule is its own live run of the
-- approved version (its own cursor, counts and idempotency keys), made by the pipeline when the
-- previous occurrence finishes (delivery/send.ts `finishRuns`). The live run is unique per
-- message, version and occurrence, so two workers finishing the same occurrence make one next run.
ALTER TABLE message_sends ADD COLUMN occurrence integer NOT NULL DEFAULT 0 CHECK (occurrence >= 0);
DROP INDEX message_sends_live;
CREATE UNIQUE INDEX message_sends_live ON message_sends (message_id, version, occurrence) WHERE kind = 'live';
