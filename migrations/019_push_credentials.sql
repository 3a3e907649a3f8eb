-- Mobile push credentials per app (issue 13, api-server/src/features/delivery/push/credentials.ts):
-- an APNs .p8 key (token authentication) and an FCM service account, at most one of each per app.
--
-- settings: the parts that are not secret and that screens may show (APNs key id, team id, bundle
-- id, environment or endpoint; FCM project id, client e-mail, token URI, endpoint).
-- secret: the private key, sealed with AES-256-GCM under a key derived from the server secret
-- (features/imports/secretBox.ts `sealSecrets`), with "<app_id>/<provider>" as additional data, so a
-- copy of the database alone does not reveal the key and a sealed key moved to another app or
-- provider does not open. The key never appears in settings.
-- updated_at: the version of the credentials; a process keeps one ready client per app and
-- provider and builds a new one when this moves (credentials.ts `loadPushClient`).
CREATE TABLE app_push_credentials (
  app_id     uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  provider   text NOT NULL CHECK (provider IN ('apns', 'fcm')),
  settings   jsonb NOT NULL,
  secret     bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (app_id, provider)
);
