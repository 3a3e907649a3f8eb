-- Wallet (/products/wallet, issue 17): pass designs and issued passes of an app, and the
-- account's signing settings for Apple Wallet and Google Wallet (shared/src/wallet/model.ts).

-- One row per account and wallet: the settings that are not secret (pass type and team ids, the
-- certificate and WWDR PEMs and the certificate's fingerprint; Google's issuer and service
-- account) as jsonb, the private key sealed (features/imports/secretBox.ts, "<account>/<provider>"
-- as additional data).
CREATE TABLE wallet_signing (
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  provider    text NOT NULL CHECK (provider IN ('apple', 'google')),
  settings    jsonb NOT NULL,
  secret      bytea NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, provider)
);

CREATE TABLE wallet_designs (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id      uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name        text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('coupon', 'loyalty')),
  design      jsonb NOT NULL,
  created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wallet_designs_app_name ON wallet_designs (app_id, lower(name));

-- An issued pass. `token` is the unguessable public link (32 random bytes, base64url); `barcode`
-- the coupon's own redemption code or the loyalty card number, unique in the app among passes
-- that are not void. Coupons keep the message, variant, promo code and max redeems they were
-- issued from (the approved version's content at that moment); their redemptions are rows of
-- message_redemptions (migration 021) whose client_id starts with 'wallet:<pass id>:'.
-- `secret` is the loyalty card's security code, sealed (row id as additional data).
CREATE TABLE wallet_passes (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id       uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  design_id    uuid NOT NULL REFERENCES wallet_designs(id) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('coupon', 'loyalty')),
  status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'voided')),
  person_id    bigint NOT NULL,
  token        text NOT NULL UNIQUE,
  barcode      text NOT NULL,
  message_id   uuid REFERENCES messages(id) ON DELETE CASCADE,
  variant_id   text,
  promo_code   text,
  max_redeems  integer,
  card_number  text,
  member_name  text,
  secret       bytea,
  created_by   uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CHECK (kind <> 'coupon' OR (message_id IS NOT NULL AND promo_code IS NOT NULL)),
  CHECK (kind <> 'loyalty' OR card_number IS NOT NULL)
);
CREATE UNIQUE INDEX wallet_passes_app_barcode ON wallet_passes (app_id, barcode) WHERE status = 'active';
CREATE INDEX wallet_passes_app_created ON wallet_passes (app_id, created_at DESC);
CREATE INDEX wallet_passes_design ON wallet_passes (design_id);
