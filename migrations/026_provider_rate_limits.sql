-- Rate limits per provider (issue 13): how many sends a second a mail provider (an SMTP server's
-- own limit, a plan's quota) or an app's push provider takes; NULL: as fast as the workers go.
--
-- provider_rate_windows: the sends granted per provider and one-second window, shared by every
-- worker process (delivery/rateLimit.ts): a worker claims what it is about to send with one upsert
-- under the row's lock, and what the window cannot take waits for the next one. Old windows are
-- deleted as workers go.
ALTER TABLE mail_providers ADD COLUMN rate_per_second integer CHECK (rate_per_second BETWEEN 1 AND 100000);
ALTER TABLE app_push_credentials ADD COLUMN rate_per_second integer CHECK (rate_per_second BETWEEN 1 AND 100000);

CREATE TABLE provider_rate_windows (
  provider_key  text NOT NULL,
  window_start  timestamptz NOT NULL,
  used          integer NOT NULL,
  -- What the last claim of this window was granted (read back by the claim that wrote it).
  last_grant    integer NOT NULL,
  PRIMARY KEY (provider_key, window_start)
);
