-- Acquisition (issue 16): the ad provider catalogue, an account's providers, an app's sources,
-- channels and campaigns, tracking links (short codes and powlinks), clicks, and the attribution of
-- installs, reinstalls and retargeting opens to clicks. The contract is docs/design/acquisition.md.
-- Later migrations of the issue (postbacks, trackers, SKAdNetwork) add their own tables.

-- The platform's catalogue of ad providers (/admin/providers), by kind (SPEC §3 "Ad providers").
-- Not an account's: the platform admin keeps it; accounts pick from it (account_providers).
CREATE TABLE ad_providers (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind                 text NOT NULL CHECK (kind IN ('social', 'search', 'appStoreSearch', 'shortVideo', 'dating', 'petal', 'tradeDesk', 'microsoft', 'retail', 'other')),
  name                 text NOT NULL,
  website              text,
  -- Postback templates with SPEC §3 macros ({click_id}, {amount}, ...); an account provider may override.
  install_postback_url text,
  event_postback_url   text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  deleted_at           timestamptz
);
CREATE UNIQUE INDEX ad_providers_name ON ad_providers (lower(name)) WHERE deleted_at IS NULL;

-- An account's providers (/acquisition/providers): ad networks and agencies it buys from, each
-- optionally from the catalogue. Provider and agency users are tied to one (provider_members) and
-- see only its campaigns (/acquisition/apptracker-provider-view).
CREATE TABLE account_providers (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id           uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  ad_provider_id       uuid REFERENCES ad_providers(id),
  name                 text NOT NULL,
  kind                 text NOT NULL DEFAULT 'other' CHECK (kind IN ('social', 'search', 'appStoreSearch', 'shortVideo', 'dating', 'petal', 'tradeDesk', 'microsoft', 'retail', 'other', 'agency')),
  install_postback_url text,
  event_postback_url   text,
  postback_method      text NOT NULL DEFAULT 'POST' CHECK (postback_method IN ('GET', 'POST')),
  active               boolean NOT NULL DEFAULT true,
  created_by           uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  deleted_at           timestamptz
);
CREATE UNIQUE INDEX account_providers_name ON account_providers (account_id, lower(name)) WHERE deleted_at IS NULL;

CREATE TABLE provider_members (
  account_provider_id uuid NOT NULL REFERENCES account_providers(id) ON DELETE CASCADE,
  user_id             uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (account_provider_id, user_id)
);
CREATE UNIQUE INDEX provider_members_user ON provider_members (user_id);

-- An app's traffic sources (SPEC §3 source types) with their attribution settings.
CREATE TABLE acq_sources (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  app_id              uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name                text NOT NULL,
  type                text NOT NULL CHECK (type IN ('inbound', 'custom', 'adnetwork', 'retargeting', 'agency', 'auto')),
  account_provider_id uuid REFERENCES account_providers(id),
  attribution         text NOT NULL DEFAULT 'last_click' CHECK (attribution IN ('last_click', 'unique_click')),
  lookback_days       integer NOT NULL DEFAULT 7 CHECK (lookback_days BETWEEN 1 AND 90),
  reattribution_days  integer NOT NULL DEFAULT 90 CHECK (reattribution_days BETWEEN 0 AND 365),
  fingerprint         boolean NOT NULL DEFAULT true,
  created_by          uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  deleted_at          timestamptz
);
CREATE UNIQUE INDEX acq_sources_name ON acq_sources (app_id, lower(name)) WHERE deleted_at IS NULL;

-- Channels group an app's campaigns (/acquisition/apptracker/channels).
CREATE TABLE acq_channels (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  app_id     uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX acq_channels_name ON acq_channels (app_id, lower(name)) WHERE deleted_at IS NULL;

-- Campaigns (apptracker). cost_value is per unit of the pricing model (per click, install, lead,
-- action) or the whole cost for 'fixed'. Destinations: where a click goes (shared AcqDestinations).
CREATE TABLE acq_campaigns (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  app_id        uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name          text NOT NULL,
  source_id     uuid NOT NULL REFERENCES acq_sources(id),
  channel_id    uuid REFERENCES acq_channels(id),
  pricing_model text NOT NULL CHECK (pricing_model IN ('cpc', 'cpi', 'cpl', 'cpa', 'fixed')),
  cost_value    numeric(18,4) NOT NULL DEFAULT 0 CHECK (cost_value >= 0),
  currency      char(3) NOT NULL DEFAULT 'USD',
  -- for cpa: the event whose occurrences are paid
  cost_event    text,
  start_day     date,
  end_day       date,
  status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'archived')),
  destinations  jsonb NOT NULL DEFAULT '{}',
  deep_link     text,
  created_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE UNIQUE INDEX acq_campaigns_name ON acq_campaigns (app_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX acq_campaigns_source ON acq_campaigns (app_id, source_id) WHERE deleted_at IS NULL;

-- Links on the link host: a campaign's tracking links and powlinks, each with a short code.
-- params: the SPEC §3 tracking link parameters fixed on the link; a click may add more.
-- destinations: per platform (ios, android, desktop) the store, deep link and web fallback.
CREATE TABLE acq_links (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  app_id       uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  campaign_id  uuid NOT NULL REFERENCES acq_campaigns(id),
  kind         text NOT NULL CHECK (kind IN ('tracking', 'powlink')),
  name         text NOT NULL,
  code         text NOT NULL UNIQUE,
  params       jsonb NOT NULL DEFAULT '{}',
  destinations jsonb NOT NULL DEFAULT '{}',
  deep_link    text,
  active       boolean NOT NULL DEFAULT true,
  created_by   uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE INDEX acq_links_campaign ON acq_links (app_id, campaign_id) WHERE deleted_at IS NULL;

-- Clicks, one insert each (batched by the link host), partitioned by month like events.
-- id is generated by the link host (a UUID), so the redirect can carry it (install referrer).
-- bot: prefetchers and crawlers, recorded but never counted or attributed.
CREATE TABLE acq_clicks (
  app_id      uuid NOT NULL,
  clicked_at  timestamptz NOT NULL,
  id          uuid NOT NULL,
  link_id     uuid NOT NULL,
  campaign_id uuid NOT NULL,
  source_id   uuid NOT NULL,
  ip          inet,
  user_agent  text,
  platform    text NOT NULL CHECK (platform IN ('ios', 'android', 'desktop')),
  os          text,
  os_version  text,
  device      text,
  browser     text,
  idfa        text,
  idfv        text,
  gaid        text,
  oaid        text,
  params      jsonb NOT NULL DEFAULT '{}',
  referrer    text,
  country     text,
  bot         boolean NOT NULL DEFAULT false,
  bot_reason  text
) PARTITION BY RANGE (clicked_at);
CREATE TABLE acq_clicks_default PARTITION OF acq_clicks DEFAULT;
CREATE INDEX acq_clicks_time ON acq_clicks (app_id, clicked_at);
CREATE INDEX acq_clicks_campaign ON acq_clicks (app_id, campaign_id, clicked_at);
CREATE INDEX acq_clicks_id ON acq_clicks (app_id, id);
CREATE INDEX acq_clicks_idfa ON acq_clicks (app_id, idfa, clicked_at) WHERE idfa IS NOT NULL;
CREATE INDEX acq_clicks_idfv ON acq_clicks (app_id, idfv, clicked_at) WHERE idfv IS NOT NULL;
CREATE INDEX acq_clicks_gaid ON acq_clicks (app_id, gaid, clicked_at) WHERE gaid IS NOT NULL;
CREATE INDEX acq_clicks_oaid ON acq_clicks (app_id, oaid, clicked_at) WHERE oaid IS NOT NULL;
CREATE INDEX acq_clicks_ip ON acq_clicks (app_id, ip, clicked_at);

-- Installs, reinstalls and retargeting opens waiting to be attributed: written by ingestion in the
-- batch's transaction, consumed by the attribution job (or at once by the deferred deep link call).
CREATE TABLE acq_pending (
  app_id      uuid NOT NULL,
  id          bigserial,
  kind        text NOT NULL CHECK (kind IN ('install', 'reinstall', 'retargeting_open')),
  event_time  timestamptz NOT NULL,
  person_id   bigint NOT NULL,
  device_id   bigint NOT NULL,
  ip          inet,
  user_agent  text,
  -- the click id the install referrer carried (Play install referrer, the web SDK's gd_click)
  referrer_click_id uuid,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, id)
);
CREATE INDEX acq_pending_device ON acq_pending (app_id, device_id);

-- Attributions: one per install, reinstall or retargeting open, attributed or Organic (campaign_id
-- NULL). match: how the click was found. assisted: the other counted clicks of the window.
-- Deferred deep link: deep_link of the winning click, handed to the SDK once (delivered_at).
CREATE TABLE acq_attributions (
  app_id        uuid NOT NULL,
  id            bigserial,
  kind          text NOT NULL CHECK (kind IN ('install', 'reinstall', 'retargeting_open')),
  event_time    timestamptz NOT NULL,
  person_id     bigint NOT NULL,
  device_id     bigint NOT NULL,
  campaign_id   uuid,
  source_id     uuid,
  click_id      uuid,
  clicked_at    timestamptz,
  match         text NOT NULL CHECK (match IN ('device_id', 'referrer', 'fingerprint', 'organic')),
  mode          text NOT NULL CHECK (mode IN ('last_click', 'unique_click')),
  assisted      uuid[] NOT NULL DEFAULT '{}',
  deep_link     text,
  deep_link_params jsonb,
  delivered_at  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, id),
  UNIQUE (app_id, device_id, kind, event_time)
);
CREATE INDEX acq_attributions_time ON acq_attributions (app_id, kind, event_time);
CREATE INDEX acq_attributions_campaign ON acq_attributions (app_id, campaign_id, event_time);
CREATE INDEX acq_attributions_person ON acq_attributions (app_id, person_id, event_time);
CREATE INDEX acq_attributions_click ON acq_attributions (app_id, click_id) WHERE click_id IS NOT NULL;

-- Clicks get monthly partitions with the other time series (the function of migration 010 with
-- acq_clicks added to its list).
CREATE OR REPLACE FUNCTION gd_ensure_month_partitions(p_from timestamptz, p_to timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', p_from AT TIME ZONE 'UTC')::date;
  last date := date_trunc('month', p_to AT TIME ZONE 'UTC')::date;
  t text;
  part text;
  k text;
  lo timestamptz;
  hi timestamptz;
  crowded boolean;
BEGIN
  WHILE m <= last LOOP
    lo := m::timestamp AT TIME ZONE 'UTC';
    hi := (m + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    FOREACH t IN ARRAY ARRAY['events','sessions','lifecycle_events','message_interactions','acq_clicks'] LOOP
      part := t || '_' || to_char(m, 'YYYY_MM');
      IF to_regclass(part) IS NULL THEN
        PERFORM pg_advisory_xact_lock(hashtext('gd_partition_' || t || m::text));
        IF to_regclass(part) IS NULL THEN
          k := substring(pg_get_partkeydef(t::regclass) FROM '\((\w+)\)');
          EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= %L AND %I < %L)', t || '_default', k, lo, k, hi) INTO crowded;
          IF NOT crowded THEN
            BEGIN
              EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, t, lo, hi);
            EXCEPTION WHEN duplicate_table OR unique_violation THEN
              NULL; -- created meanwhile by another session
            END;
          ELSE
            EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, t);
            EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
              t || '_default', k, lo, k, hi, part);
            EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', t, part, lo, hi);
          END IF;
        END IF;
      END IF;
    END LOOP;
    m := (m + interval '1 month')::date;
  END LOOP;
END $$;
