-- A run is finished when nothing of it waits (delivery/finish.ts): no queued row to send, and for a
-- live run no in-app row still on offer. Asked of every sending run on every tick of every worker.
-- The first question is answered by message_outbox_send_due (029); this partial index answers the
-- second from the run's in-app rows alone. Without it, the two questions asked as one OR made the
-- planner scan the outbox until a match: 0.3 s a tick beside a paused 1,000,000-row run.
CREATE INDEX message_outbox_in_app_send ON message_outbox (send_id) WHERE channel = 'inApp' AND status IN ('queued', 'sent');
