-- Integrations (issue 17, written first: the contract of docs/design/integrations.md). The
-- object-storage table of migration 005 becomes the table of every integration kind of SPEC §3
-- ("Integrations (by kind)"), authenticated by basic credentials, keys or OAuth 2.
--
-- config: the kind's non-secret settings (endpoints, client id, ad account id, experience-platform
--         techId/imsOrgId/imsHost/metaScopes, retail regions and event types, bucket...). Never a
--         secret.
-- secret: AES-256-GCM sealed JSON (features/imports/secretBox.ts, row id as additional data) of
--         the secrets: password, api key, client secret, secret access key, and for OAuth 2 the
--         access and refresh tokens. Never answered by any route.
-- status: pending (saved, OAuth 2 not yet authorised), connected (the last test, authorisation or
--         refresh succeeded), error (status_code/status_message say why; catalogue codes 10009,
--         13, 10024, 10047...), disconnected (tokens dropped by the user).
ALTER TABLE integrations DROP CONSTRAINT integrations_kind_check;
UPDATE integrations SET kind = 'object_storage' WHERE kind = 's3';
ALTER TABLE integrations ADD CONSTRAINT integrations_kind_check CHECK (kind IN (
  'product_analytics', 'crm', 'social_ads', 'search_ads', 'object_storage', 'experience_platform',
  'tag_manager', 'retail_dsp', 'trade_desk'));
ALTER TABLE integrations
  ADD COLUMN service text NOT NULL DEFAULT 's3',
  ADD COLUMN auth text NOT NULL DEFAULT 'keys' CHECK (auth IN ('basic', 'oauth2', 'keys')),
  ADD COLUMN status text NOT NULL DEFAULT 'connected' CHECK (status IN ('pending', 'connected', 'error', 'disconnected')),
  ADD COLUMN status_code integer,
  ADD COLUMN status_message text,
  ADD COLUMN token_expires_at timestamptz,       -- OAuth 2: when the sealed access token expires
  ADD COLUMN connected_at timestamptz,
  ADD COLUMN last_refreshed_at timestamptz;
ALTER TABLE integrations ALTER COLUMN service DROP DEFAULT;
ALTER TABLE integrations ALTER COLUMN auth DROP DEFAULT;
ALTER TABLE integrations ALTER COLUMN status SET DEFAULT 'pending';
CREATE INDEX integrations_app_kind ON integrations (app_id, kind);
-- The refresher finds tokens about to expire.
CREATE INDEX integrations_token_expiry ON integrations (token_expires_at) WHERE auth = 'oauth2' AND status = 'connected';

-- One row per started OAuth 2 authorisation: the state (its SHA-256, the state itself travels
-- only through the browser), the PKCE verifier sealed under the row id, who started it and where
-- to send the browser back. Used once (used_at) and only before expires_at (10 minutes).
CREATE TABLE integration_oauth_states (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  integration_id  uuid NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
  account_id      uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id         uuid REFERENCES users(id) ON DELETE CASCADE,
  state_hash      bytea NOT NULL UNIQUE,
  verifier        bytea NOT NULL,                -- sealed PKCE code verifier
  return_to       text NOT NULL DEFAULT '/manage/integrations',
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz
);
CREATE INDEX integration_oauth_states_expiry ON integration_oauth_states (expires_at);

-- Audience import type adobe (an experience-platform integration, config.adobeId).
ALTER TABLE import_tasks DROP CONSTRAINT import_tasks_type_check;
ALTER TABLE import_tasks ADD CONSTRAINT import_tasks_type_check
  CHECK (type IN ('csv','csv_dynamic','https','ftp','s3','adobe','performance_report','segment'));
