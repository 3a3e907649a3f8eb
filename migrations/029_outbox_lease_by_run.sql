-- The send workers' lease and frequency caps (issue 13; api-server/src/features/delivery/send.ts, caps.ts).
--
-- The lease reads each running run's due rows through its own range of this index (send, then
-- time), so the rows of a paused or deleted message, however many, are never walked by a lease;
-- the index on run_at alone (migration 022) made every lease, every 200 ms, step over them.
CREATE INDEX message_outbox_send_due ON message_outbox (send_id, run_at, id) WHERE status = 'queued' AND channel <> 'inApp';
DROP INDEX message_outbox_due;

-- Rows other workers hold this instant (leased, not yet recorded), by person: what a frequency
-- cap counts besides the rows already sent, so two workers never both send a person's last
-- allowed message. Recording a row clears `locked_until`, which takes it out of this index.
CREATE INDEX message_outbox_leased ON message_outbox (app_id, person_id) WHERE status = 'queued' AND locked_until IS NOT NULL;
