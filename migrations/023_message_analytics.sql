-- Message analytics (issue 13; api-server/src/features/messageAnalytics/): the outbox read by
-- message (metrics of one message and its variants, live while it sends) and sent rows by time
-- (the messages that sent in a report's range). Test sends never count, so they are left out.
CREATE INDEX message_outbox_message ON message_outbox (message_id, variant_id, status) WHERE NOT test;
CREATE INDEX message_outbox_app_sent ON message_outbox (app_id, sent_at) WHERE status = 'sent' AND NOT test;
