-- Import tasks (/manage/import-task) that fill audiences, audience exports (CSV, zip), the
-- object-storage integrations imports read from, and the stored files both use.
--
-- Import tasks and exports are durable background jobs: the row is the job. A worker claims a row
-- whose run_at is due and whose lease (locked_until) is free or expired, with SKIP LOCKED, and keeps
-- the lease alive while it runs; a worker that dies leaves its lease to expire and another worker
-- takes the row over (attempts counts the claims). `queue` separates runners sharing a database
-- (tests); it is 'default' in production. Why a table and not pg-boss: api-server/src/jobs/runner.ts.

-- Object storage (S3-compatible) credentials of an app. The secret access key is encrypted
-- (AES-256-GCM, key derived from the server secret) and never answered to the browser.
CREATE TABLE integrations (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id      uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('s3')),
  name        text NOT NULL,
  config      jsonb NOT NULL DEFAULT '{}',   -- endpoint, region, bucket, accessKeyId: no secrets
  secret      bytea,                         -- encrypted JSON of the secrets
  created_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX integrations_app_name ON integrations (app_id, lower(name));

CREATE TABLE import_tasks (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id      uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id          uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  -- The audience the import fills (its members are replaced when the import succeeds).
  audience_id     uuid REFERENCES audiences(id) ON DELETE SET NULL,
  name            text NOT NULL,
  type            text NOT NULL CHECK (type IN ('csv','csv_dynamic','https','ftp','s3','performance_report','segment')),
  config          jsonb NOT NULL DEFAULT '{}',   -- SPEC.md section 3 fields of the type, WITHOUT secrets
  secret          bytea,                         -- encrypted JSON of the secrets (ftpPassword)
  -- An uploaded CSV (csvContent) is kept in stored_file_chunks under the task's id.
  has_upload      boolean NOT NULL DEFAULT false,
  status          text NOT NULL DEFAULT 'new'
                  CHECK (status IN ('new','in_progress','ready','sync','error','inactive')),
  rows_read       bigint NOT NULL DEFAULT 0,
  rows_matched    bigint NOT NULL DEFAULT 0,
  rows_unmatched  bigint NOT NULL DEFAULT 0,
  bytes_read      bigint NOT NULL DEFAULT 0,
  bytes_total     bigint,
  person_count    bigint,
  warning         text,
  error_name      text,            -- SPEC.md section 8 import error names, AudienceNotExist, AudienceNotValid
  error_message   text,
  error_line      bigint,          -- CsvSyntaxError: the line of the file
  queue           text NOT NULL DEFAULT 'default',
  attempts        integer NOT NULL DEFAULT 0,
  max_attempts    integer NOT NULL DEFAULT 3,
  run_at          timestamptz,     -- NULL: not queued (waiting for its file)
  locked_by       text,
  locked_until    timestamptz,
  started_at      timestamptz,
  finished_at     timestamptz,
  created_by      uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX import_tasks_app ON import_tasks (app_id, created_at DESC);
CREATE INDEX import_tasks_due ON import_tasks (queue, run_at) WHERE status IN ('new','in_progress') AND run_at IS NOT NULL;

-- The identifiers an import run has read so far (n: the row's number in the file), before they are
-- resolved to people and replace the audience's members in one transaction at the end. Unlogged
-- scratch space that a crash may lose (the run restarts). No index: rows are written in bulk and
-- read once by a hash join; only the rows of running imports are here.
CREATE UNLOGGED TABLE import_rows (
  task_id uuid NOT NULL,
  n       bigint NOT NULL,
  ident   text NOT NULL
);

CREATE TABLE audience_exports (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id      uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  app_id          uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  audience_id     uuid REFERENCES audiences(id) ON DELETE SET NULL,
  audience_name   text NOT NULL,
  format          text NOT NULL CHECK (format IN ('csv','zip')),
  status          text NOT NULL DEFAULT 'processing' CHECK (status IN ('ready','error','processing','warning')),
  row_count       bigint,
  expected_count  bigint,          -- the audience's person_count when the export started
  byte_size       bigint,
  file_name       text,
  warning         text,
  error_message   text,
  queue           text NOT NULL DEFAULT 'default',
  attempts        integer NOT NULL DEFAULT 0,
  max_attempts    integer NOT NULL DEFAULT 3,
  run_at          timestamptz DEFAULT now(),
  locked_by       text,
  locked_until    timestamptz,
  created_by      uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz
);
CREATE INDEX audience_exports_app ON audience_exports (app_id, created_at DESC);
CREATE INDEX audience_exports_due ON audience_exports (queue, run_at) WHERE status = 'processing';

-- Files kept in the database (uploaded import files, export results) in chunks of about 1 MiB, so
-- every API and worker process reaches them and none holds a whole file in memory.
CREATE TABLE stored_file_chunks (
  file_id  uuid NOT NULL,
  seq      integer NOT NULL,
  data     bytea NOT NULL,
  PRIMARY KEY (file_id, seq)
);
