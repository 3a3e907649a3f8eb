-- Mail providers of an account (/manage/mail-providers): the SMTP servers its e-mail messages go
-- out through. At most one is active per account (the one the send pipeline uses); activating one
-- deactivates the others in one transaction, and the partial unique index below makes a second
-- active provider impossible whatever the code does. The password is sealed at rest like import
-- credentials (features/imports/secretBox.ts, AES-256-GCM with the row id as additional data);
-- NULL when the server takes no authentication.

CREATE TABLE mail_providers (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id    uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name          text NOT NULL,
  host          text NOT NULL,
  port          integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  -- 'tls': implicit TLS from the first byte (465); 'starttls': plain, then upgraded and required (587); 'none': never encrypted.
  tls           text NOT NULL CHECK (tls IN ('tls','starttls','none')),
  username      text NOT NULL DEFAULT '',
  secret        bytea,
  sender_name   text NOT NULL,
  sender_email  text NOT NULL,
  active        boolean NOT NULL DEFAULT false,
  created_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
-- Names are unique per account, whatever their case (30 on a duplicate).
CREATE UNIQUE INDEX mail_providers_account_name ON mail_providers (account_id, lower(name));
CREATE UNIQUE INDEX mail_providers_one_active ON mail_providers (account_id) WHERE active;
