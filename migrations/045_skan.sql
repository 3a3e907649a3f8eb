-- SKAdNetwork (issue 16, piece E; docs/design/acquisition.md): an app's App Store id and
-- conversion-value schema, the mapping of ad networks' source identifiers to its campaigns, and
-- the postbacks Apple's devices send. The rules are shared/src/acquisition/skan.ts.

-- One row per app that set anything. app_store_id is the `app-id` of Apple's postbacks: unique on
-- the platform, so a postback belongs to exactly one app. schema: shared SkanConversionSchema.
CREATE TABLE skan_settings (
  app_id       uuid PRIMARY KEY REFERENCES apps(id) ON DELETE CASCADE,
  app_store_id bigint,
  schema       jsonb NOT NULL DEFAULT '{"currency":"USD","fine":[],"coarse":[]}',
  updated_by   uuid REFERENCES users(id) ON DELETE SET NULL,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX skan_settings_app_store_id ON skan_settings (app_store_id) WHERE app_store_id IS NOT NULL;

-- An ad network's source identifier (4.0; the campaign id before) mapped to one of the app's campaigns.
CREATE TABLE skan_mappings (
  app_id            uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  ad_network_id     text NOT NULL,
  source_identifier text NOT NULL CHECK (source_identifier ~ '^[0-9]{1,4}$'),
  campaign_id       uuid NOT NULL REFERENCES acq_campaigns(id) ON DELETE CASCADE,
  PRIMARY KEY (app_id, ad_network_id, source_identifier)
);

-- Postbacks as received. verified: Apple's signature checked; a rejected one (reject_reason) is
-- kept to be seen but never counted. Once per transaction id and window (sequence_index): a retry
-- changes nothing, except that a verified postback replaces a rejected row of the same key (so a
-- forged postback cannot take a transaction id first). payload: the JSON body as received.
CREATE TABLE skan_postbacks (
  app_id            uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  id                bigserial,
  received_at       timestamptz NOT NULL DEFAULT now(),
  version           text NOT NULL,
  ad_network_id     text NOT NULL,
  source_identifier text NOT NULL,
  transaction_id    text NOT NULL,
  sequence_index    smallint NOT NULL DEFAULT 0 CHECK (sequence_index BETWEEN 0 AND 2),
  fidelity_type     smallint CHECK (fidelity_type IN (0, 1)),
  did_win           boolean,
  redownload        boolean NOT NULL DEFAULT false,
  fine_value        smallint CHECK (fine_value BETWEEN 0 AND 63),
  coarse_value      text CHECK (coarse_value IN ('low', 'medium', 'high')),
  source_app_id     text,
  source_domain     text,
  verified          boolean NOT NULL,
  reject_reason     text CHECK (reject_reason IN ('bad_signature', 'unsupported_version', 'missing_field', 'bad_key')),
  payload           jsonb NOT NULL,
  PRIMARY KEY (app_id, id),
  UNIQUE (app_id, transaction_id, sequence_index)
);
CREATE INDEX skan_postbacks_time ON skan_postbacks (app_id, received_at);
