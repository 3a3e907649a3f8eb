-- Web push (issue 13; api-server/src/features/delivery/push/webPush.ts).
--
-- app_web_push: an app's VAPID key pair (RFC 8292), made by the server when web push is enabled
-- for the app. The public key is what browsers subscribe with (the web SDK fetches it); the private
-- key is sealed like the other push credentials (features/imports/secretBox.ts `sealSecrets`, with
-- "<app_id>/webpush" as additional data) and never leaves the server. `subject` is the contact
-- (mailto: or https:) push services see in the VAPID JWT. Rotating makes a new pair: subscriptions
-- made with the old public key are refused by their push services (403) from then on, and the SDK
-- subscribes again with the new key on the page's next visit.
CREATE TABLE app_web_push (
  app_id      uuid PRIMARY KEY REFERENCES apps(id) ON DELETE CASCADE,
  public_key  text NOT NULL,
  subject     text NOT NULL,
  secret      bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- A browser's push subscription is its device's push address: `devices.push_token` holds the
-- subscription's endpoint (so the person's push reach, migration 017, the segment condition
-- "push active", the what-if and the retirement of dead tokens work for it unchanged), and
-- `web_push` the keys the payload is encrypted for: {"endpoint", "p256dh", "auth"}. The keys count
-- only while their endpoint is still the device's push token (a later token from another SDK
-- makes them inert), so the send pipeline reads a device as web push (outbox platform 'web') when
-- `web_push->>'endpoint' = push_token`.
ALTER TABLE devices ADD COLUMN web_push jsonb;
