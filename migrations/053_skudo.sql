-- Skudo (issue 17, piece F): an account's offer marketplace. Providers (the offers' owners)
-- publish offers; each offer has tracking URLs (one per partner or channel, a short code on the
-- link host at /s/<code>) whose clicks are counted; campaigns group offers. Partners (publishers)
-- sign in at /skudo/login with a one-time authorization code and get their own session.
-- The decisions SPEC does not take are written in shared/src/skudo/model.ts.
-- Every table carries account_id: every query is scoped by it as well as by the row id.

CREATE TABLE skudo_providers (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id    uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name          text NOT NULL,
  website       text,
  contact_email text,
  created_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX skudo_providers_name ON skudo_providers (account_id, lower(name));

CREATE TABLE skudo_campaigns (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  starts_on   date NOT NULL,
  ends_on     date,
  status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'ended')),
  created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_on IS NULL OR ends_on >= starts_on)
);
CREATE UNIQUE INDEX skudo_campaigns_name ON skudo_campaigns (account_id, lower(name));

CREATE TABLE skudo_offers (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id      uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  provider_id     uuid NOT NULL REFERENCES skudo_providers(id) ON DELETE CASCADE,
  -- A campaign is deleted only without active offers (20002); its other offers stay, ungrouped.
  campaign_id     uuid REFERENCES skudo_campaigns(id) ON DELETE SET NULL,
  title           text NOT NULL,
  description     text NOT NULL DEFAULT '',
  image_url       text,
  payout_model    text NOT NULL CHECK (payout_model IN ('cpc', 'cpl', 'cpi', 'cpa', 'cps')),
  -- Money in the currency (cps: a percentage of the sale).
  payout_amount   numeric(12, 2) NOT NULL CHECK (payout_amount >= 0),
  currency        text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  destination_url text NOT NULL,
  status          text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'paused', 'ended')),
  created_by      uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX skudo_offers_account ON skudo_offers (account_id, created_at);
CREATE INDEX skudo_offers_provider ON skudo_offers (provider_id);
CREATE INDEX skudo_offers_campaign ON skudo_offers (campaign_id);

CREATE TABLE skudo_partners (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id         uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name               text NOT NULL,
  email              text NOT NULL,
  status             text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  last_sign_in_at    timestamptz,
  created_by         uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX skudo_partners_email ON skudo_partners (account_id, lower(email));

-- A tracking URL: /s/<code> on the link host. One per partner or channel (partner_id null: a
-- channel of the account's own, named by label). clicks counts the clicks that were not bots'.
CREATE TABLE skudo_tracking_urls (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id    uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  offer_id      uuid NOT NULL REFERENCES skudo_offers(id) ON DELETE CASCADE,
  partner_id    uuid REFERENCES skudo_partners(id) ON DELETE SET NULL,
  label         text NOT NULL,
  code          text NOT NULL UNIQUE,
  active        boolean NOT NULL DEFAULT true,
  clicks        bigint NOT NULL DEFAULT 0,
  last_click_at timestamptz,
  created_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX skudo_tracking_urls_offer ON skudo_tracking_urls (offer_id);
CREATE INDEX skudo_tracking_urls_partner ON skudo_tracking_urls (partner_id);

-- Every request to a tracking URL (bots too, flagged): the click id handed to the destination.
CREATE TABLE skudo_clicks (
  id          uuid PRIMARY KEY,
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  url_id      uuid NOT NULL REFERENCES skudo_tracking_urls(id) ON DELETE CASCADE,
  clicked_at  timestamptz NOT NULL DEFAULT now(),
  ip          text,
  user_agent  text,
  referrer    text,
  bot         boolean NOT NULL DEFAULT false
);
CREATE INDEX skudo_clicks_url ON skudo_clicks (url_id, clicked_at);

-- One-time authorization codes handed to a partner (shown once on the skudo screen, or mailed):
-- only their SHA-256 is kept; used once (used_at), only before expires_at.
CREATE TABLE skudo_auth_codes (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  partner_id  uuid NOT NULL REFERENCES skudo_partners(id) ON DELETE CASCADE,
  code_hash   bytea NOT NULL UNIQUE,
  channel     text NOT NULL CHECK (channel IN ('handover', 'email')),
  created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX skudo_auth_codes_partner ON skudo_auth_codes (partner_id);

-- A partner's session (the gd_skudo cookie holds the token; only its SHA-256 is kept). Not an
-- account user's session: it opens only the partner's own offers and tracking URLs.
CREATE TABLE skudo_partner_sessions (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  partner_id  uuid NOT NULL REFERENCES skudo_partners(id) ON DELETE CASCADE,
  token_hash  bytea NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX skudo_partner_sessions_partner ON skudo_partner_sessions (partner_id);
