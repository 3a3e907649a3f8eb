-- Automatic rules (/communication/rules; issue 14): "when this happens to a person, send them this
-- approved message". The model is shared/src/rules/model.ts; the engine api-server/src/features/rules/.

CREATE TABLE rules (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id    uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id        uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name          text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('birthday', 'registered_yesterday', 'onscreen', 'coupon_redeemed', 'spent_at_least',
                                              'purchased_product', 'tag_value', 'event_made')),
  -- The kind's parameters as rules/model.ts RuleTrigger (kind included).
  trigger       jsonb NOT NULL,
  -- The automaticRule message it sends (messages are soft-deleted: a deleted one skips the sends).
  message_id    uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  -- Time-based kinds only: the hour on the app's clock.
  send_hour     smallint CHECK (send_hour BETWEEN 0 AND 23),
  status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
  -- When it last became active: a day's run happens only if the rule was active at its send time.
  activated_at  timestamptz,
  created_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  -- What the list shows: the last time it acted, and how many sends it queued.
  last_run_at   timestamptz,
  sends         integer NOT NULL DEFAULT 0,
  -- Coupon rules: the last message_redemptions.id looked at (redemptions are read in id order).
  redemption_cursor bigint NOT NULL DEFAULT 0,
  deleted_at    timestamptz,
  CHECK ((kind IN ('birthday', 'registered_yesterday', 'tag_value')) = (send_hour IS NOT NULL))
);
CREATE UNIQUE INDEX rules_app_name ON rules (app_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX rules_app ON rules (app_id, created_at DESC) WHERE deleted_at IS NULL;
CREATE INDEX rules_running ON rules (app_id, kind) WHERE status = 'active' AND deleted_at IS NULL;

-- A time-based rule's run of one day (the app's calendar day): made when it starts, moved page by
-- page (`cursor`: the last person id done, in the same transaction as the page's sends), finished
-- once the last page is done. A process that dies mid-run leaves it for the next to resume; a
-- finished day never runs again.
CREATE TABLE rule_occurrences (
  rule_id      uuid NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
  app_id       uuid NOT NULL,
  day          date NOT NULL,
  cursor       bigint NOT NULL DEFAULT 0,
  sent         integer NOT NULL DEFAULT 0,
  started_at   timestamptz NOT NULL,
  finished_at  timestamptz,
  PRIMARY KEY (rule_id, day)
);

-- Who a rule reached, and on which occasion (a day, or an event's client id): what the tag rule
-- reads ("not reached since the tag was set") and what a rule's history shows.
CREATE TABLE rule_sends (
  rule_id    uuid NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
  app_id     uuid NOT NULL,
  person_id  bigint NOT NULL,
  occasion   text NOT NULL,
  at         timestamptz NOT NULL,
  PRIMARY KEY (rule_id, person_id, occasion)
);
