-- In-app messages and native ads through the SDK (issue 13; api-server/src/features/sdkMessages/).
--
-- Playing an in-app message (or native ad, or an A/B variant of an in-app type) writes one
-- `message_outbox` row per person with channel 'inApp' and address '-', like push and e-mail rows
-- (same targeting, variant draw and idempotency key). Those rows are never leased by the send
-- workers: 'queued' means "waiting to be shown"; the SDK endpoint marks a row 'sent' (delivered,
-- counted by the frequency caps) the first time it hands it to the person's device.
--
-- expires_at: when the row stops being offered (the content's `life` counted from run_at; null:
-- never). A run whose in-app rows have all expired can finish.
ALTER TABLE message_outbox ADD COLUMN expires_at timestamptz;

-- The send workers' lease reads only rows they send: in-app rows waiting to be shown (a whole
-- audience of them, for as long as the message runs) must not be scanned by every lease.
DROP INDEX message_outbox_due;
CREATE INDEX message_outbox_due ON message_outbox (run_at) WHERE status = 'queued' AND channel <> 'inApp';

-- What the SDK asks on every page or screen: this person's in-app rows still on offer.
CREATE INDEX message_outbox_in_app ON message_outbox (app_id, person_id) WHERE channel = 'inApp' AND status IN ('queued', 'sent');
