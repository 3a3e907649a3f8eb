-- Accounts, users, roles, apps, test devices and the authentication tables.
-- Forward-only: never edit a migration that has shipped; add a new numbered file.

CREATE TABLE accounts (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text NOT NULL,
  plan          text NOT NULL CHECK (plan IN ('padawan','knight','master','growth','advanced','enterprise')),
  support_level text NOT NULL DEFAULT 'basic' CHECK (support_level IN ('basic','account_manager','customer_success')),
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- Account-level roles (/user-roles). Built-in roles are seeded per account; custom roles are added by admins.
CREATE TABLE user_roles (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       text NOT NULL,
  built_in   text,
  user_type  integer NOT NULL,
  grants     text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, id)
);
CREATE UNIQUE INDEX user_roles_account_name ON user_roles (account_id, lower(name));
CREATE UNIQUE INDEX user_roles_account_builtin ON user_roles (account_id, built_in) WHERE built_in IS NOT NULL;

CREATE TABLE users (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id          uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  email               text NOT NULL,
  name                text NOT NULL,
  password_hash       text,
  role_id             uuid NOT NULL,
  job_department      text,
  language            text NOT NULL DEFAULT 'en',
  active              boolean NOT NULL DEFAULT true,
  created_at          timestamptz NOT NULL DEFAULT now(),
  last_login_at       timestamptz,
  password_changed_at timestamptz,
  FOREIGN KEY (account_id, role_id) REFERENCES user_roles (account_id, id)
);
CREATE UNIQUE INDEX users_email ON users (lower(email));
CREATE INDEX users_account ON users (account_id);

CREATE TABLE password_history (
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  hash       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_history_user ON password_history (user_id, created_at DESC);

-- Rotating refresh tokens. A token is used once; presenting a used token revokes its whole family.
CREATE TABLE refresh_tokens (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  family_id  uuid NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

-- One-time links: password reset and auto-login (invitations).
CREATE TABLE one_time_tokens (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('reset_password','auto_login')),
  token_hash bytea NOT NULL UNIQUE,
  redirect   text,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE login_failures (
  id         bigserial PRIMARY KEY,
  email      text NOT NULL,
  ip         text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_email ON login_failures (lower(email), created_at);
CREATE INDEX login_failures_ip ON login_failures (ip, created_at);

CREATE TABLE apps (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       text NOT NULL,
  os         text NOT NULL CHECK (os IN ('iOS','Android','Other','Windows Phone','Web','iOS Web','Android Web','Windows Phone Web')),
  bundle_id  text,
  timezone   text NOT NULL DEFAULT 'UTC',
  app_key    text NOT NULL UNIQUE,
  restricted text[] NOT NULL DEFAULT '{}',
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX apps_account_name ON apps (account_id, lower(name));

CREATE TABLE test_devices (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  app_id     uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name       text NOT NULL,
  id_type    text NOT NULL CHECK (id_type IN ('idfa','idfv','gaid','oaid','auto')),
  device_id  text NOT NULL,
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX test_devices_app_device ON test_devices (app_id, device_id);

-- The mail pipeline: messages are queued in the same transaction as what caused them and sent by the worker.
CREATE TABLE mail_outbox (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  to_address  text NOT NULL,
  subject     text NOT NULL,
  text_body   text NOT NULL,
  html_body   text,
  kind        text NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  last_error  text,
  next_try_at timestamptz NOT NULL DEFAULT now(),
  sent_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_pending ON mail_outbox (next_try_at) WHERE sent_at IS NULL;

-- Secrets generated on first start when not configured (JWT signing key shared by API and sync server).
CREATE TABLE server_secrets (
  name       text PRIMARY KEY,
  value      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
