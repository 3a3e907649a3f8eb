-- Provider postbacks and in-app event trackers (issue 16, piece D; docs/design/acquisition.md).
--
-- A tracker maps an app's event (built-in or custom) to a provider's event postback: when a person
-- attributed to one of that provider's campaigns does the event, a postback is queued. The trigger
-- inbox (migration 031) brings the events: the trackers' event names are the interests of consumer
-- `postbacks`, so ingestion writes one inbox row per matching event in its own transaction and
-- nothing else in ingestion changes.
CREATE TABLE acq_trackers (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  app_id              uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name                text NOT NULL,
  -- the app's event that fires it (gd_register, gd_transaction, a custom name, ...)
  event               text NOT NULL,
  account_provider_id uuid NOT NULL REFERENCES account_providers(id),
  -- only people attributed to this campaign; NULL: to any campaign of the provider
  campaign_id         uuid REFERENCES acq_campaigns(id),
  -- the tracker's own URL template; NULL: the provider's event postback URL
  postback_url        text,
  -- the event name the provider expects (sent as parameter `event`); NULL: none sent
  provider_event      text,
  -- SPEC §3 macros sent as parameters besides the URL's own (query for GET, form body for POST)
  macros              text[] NOT NULL DEFAULT '{}',
  active              boolean NOT NULL DEFAULT true,
  created_by          uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  deleted_at          timestamptz
);
CREATE UNIQUE INDEX acq_trackers_name ON acq_trackers (app_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX acq_trackers_event ON acq_trackers (app_id, event) WHERE deleted_at IS NULL AND active;

ALTER TABLE trigger_interests DROP CONSTRAINT trigger_interests_consumer_check;
ALTER TABLE trigger_interests ADD CONSTRAINT trigger_interests_consumer_check CHECK (consumer IN ('journeys', 'rules', 'postbacks'));

-- Postback calls: one row per attribution and kind (install, reinstall, retargeting open) or per
-- tracker and event, written in the transaction that attributed or consumed the event (dedup_key
-- makes a second write a no-op), sent later by the worker (features/postbacks/send.ts) outside any
-- transaction. The request (method, URL with its macros filled, body) is fixed when queued, so
-- every attempt sends the same bytes with the same Idempotency-Key.
CREATE TABLE acq_postbacks (
  id                  bigserial PRIMARY KEY,
  app_id              uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  campaign_id         uuid NOT NULL,
  account_provider_id uuid NOT NULL,
  kind                text NOT NULL CHECK (kind IN ('install', 'reinstall', 'retargeting_open', 'event')),
  -- 'install:<attribution id>', 'reinstall:<id>', 'retargeting_open:<id>', 'event:<tracker id>:<event client id>'
  dedup_key           text NOT NULL,
  attribution_id      bigint NOT NULL,
  tracker_id          uuid,
  event_name          text,
  method              text NOT NULL CHECK (method IN ('GET', 'POST')),
  url                 text NOT NULL,
  body                text,
  status              text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ok', 'failed')),
  attempts            integer NOT NULL DEFAULT 0,
  next_at             timestamptz NOT NULL DEFAULT now(),
  locked_by           text,
  locked_until        timestamptz,
  response_status     integer,
  error               text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  last_attempt_at     timestamptz,
  done_at             timestamptz,
  UNIQUE (app_id, dedup_key)
);
CREATE INDEX acq_postbacks_due ON acq_postbacks (next_at) WHERE status = 'pending';
CREATE INDEX acq_postbacks_campaign ON acq_postbacks (app_id, campaign_id, created_at DESC, id DESC);
