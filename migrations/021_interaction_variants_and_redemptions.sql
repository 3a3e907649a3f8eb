-- What the message analytics of issue 13 read besides the outbox.
--
-- Interactions name the variant they answer (A/B analysis) and, for journey sends, the step; the
-- SDK reports the variant it was given with the message, the e-mail tracking endpoints take it
-- from the outbox row. Older rows have none (counted under the message, not under a variant).
ALTER TABLE message_interactions ADD COLUMN variant_id text;
ALTER TABLE message_interactions ADD COLUMN step_id text;
CREATE INDEX interactions_message_variant ON message_interactions (message_id, variant_id, kind) WHERE message_id IS NOT NULL;

-- Coupon redemptions (an in-app coupon redeemed through the SDK; later the wallet's passes): the
-- redeems metric, and what max_redeems counts per person and message. One row per redemption;
-- `client_id` makes a retried report count once.
CREATE TABLE message_redemptions (
  id          bigserial PRIMARY KEY,
  app_id      uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  message_id  uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  variant_id  text,
  person_id   bigint NOT NULL,
  promo_code  text,
  client_id   text NOT NULL,
  at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (app_id, client_id)
);
CREATE INDEX message_redemptions_message ON message_redemptions (message_id, person_id);
