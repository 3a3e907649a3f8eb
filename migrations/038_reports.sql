-- Scheduled reports (/main/reports; issue 15, piece D): a saved query of an app (explore, funnel,
-- cohort, communication; acquisition is listed but refused until issue 16) run on a schedule in the
-- app's time zone, written as csv or zip and delivered by e-mail or SFTP. The model is
-- shared/src/schemas/reports.ts; the scheduler and the runs are api-server/src/features/reports/.

-- A report is also the scheduler's job row (jobs/runner.ts): `run_at` is its next due slot; the
-- runner claims due reports FOR UPDATE SKIP LOCKED and records one run per slot.
CREATE TABLE scheduled_reports (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id    uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id        uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name          text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('explore', 'funnel', 'cohort', 'communication', 'acquisition')),
  -- The kind's query without its days (the relative `range` gives them at each run).
  query         jsonb NOT NULL,
  range         text NOT NULL,
  -- frequency, minute, hour, weekday, monthDay (schemas/reports.ts ReportSchedule).
  schedule      jsonb NOT NULL,
  format        text NOT NULL CHECK (format IN ('csv', 'zip')),
  -- The target without secrets: { type: 'email', mailProviderId, recipients } or { type: 'sftp', host, port, username, path }.
  target        jsonb NOT NULL,
  -- SFTP password or private key, sealed with the server secret and this row's id (imports/secretBox.ts).
  secret        bytea,
  -- Which secrets `secret` holds ('password', 'privateKey'), so answers say so without opening it.
  secret_kinds  text[] NOT NULL DEFAULT '{}',
  active        boolean NOT NULL DEFAULT true,
  -- Job columns (jobs/runner.ts): run_at = the next slot (NULL when inactive).
  queue         text NOT NULL DEFAULT 'default',
  run_at        timestamptz,
  attempts      integer NOT NULL DEFAULT 0,
  max_attempts  integer NOT NULL DEFAULT 1000000,
  locked_by     text,
  locked_until  timestamptz,
  created_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE UNIQUE INDEX scheduled_reports_app_name ON scheduled_reports (app_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX scheduled_reports_app ON scheduled_reports (app_id, created_at DESC) WHERE deleted_at IS NULL;
CREATE INDEX scheduled_reports_due ON scheduled_reports (queue, run_at) WHERE active AND deleted_at IS NULL;

-- One run of a report: a durable job (jobs/runner.ts) that writes the file (stored_file_chunks under
-- the run's id) and delivers it. A scheduled run is recorded once per slot (UNIQUE report, slot);
-- "Run now" runs have no slot. Statuses are SPEC section 4's export statuses.
CREATE TABLE report_runs (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id     uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id         uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  report_id      uuid NOT NULL REFERENCES scheduled_reports(id) ON DELETE CASCADE,
  slot           timestamptz,
  trigger        text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
  -- The days the run covers (the relative range evaluated at the slot, in the app's time zone).
  start_day      date NOT NULL,
  end_day        date NOT NULL,
  status         text NOT NULL DEFAULT 'processing' CHECK (status IN ('ready', 'error', 'processing', 'warning')),
  row_count      bigint,
  byte_size      bigint,
  file_name      text,
  -- Set once the target accepted the file: a run taken over after that does not deliver again.
  delivered_at   timestamptz,
  warning        text,
  error_message  text,
  -- The last failed attempt's reason while it retries.
  last_error     text,
  queue          text NOT NULL DEFAULT 'default',
  attempts       integer NOT NULL DEFAULT 0,
  max_attempts   integer NOT NULL DEFAULT 4,
  run_at         timestamptz DEFAULT now(),
  locked_by      text,
  locked_until   timestamptz,
  created_by     uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz
);
CREATE UNIQUE INDEX report_runs_slot ON report_runs (report_id, slot) WHERE slot IS NOT NULL;
CREATE INDEX report_runs_report ON report_runs (report_id, created_at DESC);
CREATE INDEX report_runs_due ON report_runs (queue, run_at) WHERE status = 'processing';
