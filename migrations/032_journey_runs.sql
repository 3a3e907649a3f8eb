-- The journey engine (issue 14; api-server/src/features/journeyRun/, docs/design/journey-engine.md).
--
-- journey_runs: one row per journey that was ever launched, the engine's view of it. `stopped_through`
-- is the highest version whose people must leave (a stop): the engine exits their open entries page by
-- page, and no entry of such a version moves again. A new launch leaves older versions' entries running
-- to their end (they finish the version they entered).
CREATE TABLE journey_runs (
  journey_id      uuid PRIMARY KEY REFERENCES journeys(id) ON DELETE CASCADE,
  app_id          uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  stopped_through integer NOT NULL DEFAULT 0,
  -- Open entries of stopped versions may remain: the stop sweep has work.
  stopping        boolean NOT NULL DEFAULT false,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX journey_runs_stopping ON journey_runs (journey_id) WHERE stopping;

-- One entry of one person into one launched version. `state` is the pure engine's EntryState
-- (shared/src/journey/run/types.ts), `step_id` its copy for counts and searches. Open entries
-- (active: to move at wake_at; waiting: at a wait, moved at wake_at or when a fact wakes it) are
-- unique per journey, person and entry key ('' without an entry key), across versions.
-- Workers take due entries with FOR UPDATE SKIP LOCKED inside the transition's own transaction:
-- the row lock is the lease, so a killed worker's entries are free the moment its connection dies.
CREATE TABLE journey_entries (
  id                 bigserial PRIMARY KEY,
  app_id             uuid NOT NULL,
  journey_id         uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  version            integer NOT NULL,
  person_id          bigint NOT NULL,
  entry_key          text NOT NULL DEFAULT '',
  source_step_id     text NOT NULL,
  status             text NOT NULL CHECK (status IN ('active', 'waiting', 'ended', 'exited')),
  step_id            text NOT NULL,
  state              jsonb NOT NULL,
  wake_at            timestamptz,
  waiting_for        text CHECK (waiting_for IN ('interaction', 'segment')),
  entered_at         timestamptz NOT NULL,
  ended_at           timestamptz,
  end_reason         text,
  converted_at       timestamptz,
  conversion_step_id text,
  -- The last message step passed (conversion credit), copied from state.lastMessage.
  last_message_step_id text,
  FOREIGN KEY (journey_id, version) REFERENCES journey_versions (journey_id, version)
);
CREATE UNIQUE INDEX journey_entries_open ON journey_entries (journey_id, person_id, entry_key) WHERE status IN ('active', 'waiting');
CREATE INDEX journey_entries_due ON journey_entries (wake_at, id) WHERE status IN ('active', 'waiting');
CREATE INDEX journey_entries_step ON journey_entries (journey_id, version, step_id) WHERE status IN ('active', 'waiting');
CREATE INDEX journey_entries_person ON journey_entries (app_id, person_id, entered_at DESC);
-- Conversions: the goal event finds a person's entries of a journey entered within its window.
CREATE INDEX journey_entries_journey_person ON journey_entries (journey_id, person_id, entered_at DESC);
-- A work queue: every transition leaves a dead row version behind in the due index; vacuum early.
ALTER TABLE journey_entries SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.05, autovacuum_analyze_scale_factor = 0.02);

-- Re-entry (settings.reentry): when each person (and entry key) last entered each journey, across
-- versions. The engine's one atomic decision per candidate: insert, or update when the mode allows.
CREATE TABLE journey_entry_marks (
  journey_id      uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  person_id       bigint NOT NULL,
  entry_key       text NOT NULL,
  last_entered_at timestamptz NOT NULL,
  PRIMARY KEY (journey_id, person_id, entry_key)
);

-- Trace: every step an entry left, in order, with the path, the reason and what decided it, and
-- the step's effect (a send queued or skipped and why, a postback, a tag).
-- No foreign key to the entry: its check would cost an index probe for each of the thousands of
-- rows a batch writes; passages are written only with their entry's transition and read by entry.
CREATE TABLE journey_passages (
  id            bigserial PRIMARY KEY,
  entry_id      bigint NOT NULL,
  step_id       text NOT NULL,
  path_id       text,
  at            timestamptz NOT NULL,
  reason        text NOT NULL,
  detail        text,
  effect_kind   text,
  effect_status text,
  effect_reason text
);
CREATE INDEX journey_passages_entry ON journey_passages (entry_id, id);

-- Step counts of a version kept by the transitions: entries that ever reached a step, and the
-- conversions credited to it. (Who is at a step now is counted from the open entries.)
CREATE TABLE journey_step_counts (
  journey_id  uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  version     integer NOT NULL,
  step_id     text NOT NULL,
  cumulative  bigint NOT NULL DEFAULT 0,
  conversions bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (journey_id, version, step_id)
);

-- Audience enrolment: who enters from a sourceAudience step, a page of people at a time ordered by
-- person id (`cursor`), never all in memory. At launch: the audience's members (or the step's own
-- segment's people) then; after a refresh or import: the members added in (added_after, added_until].
CREATE TABLE journey_enrolments (
  id            bigserial PRIMARY KEY,
  app_id        uuid NOT NULL,
  journey_id    uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  version       integer NOT NULL,
  step_id       text NOT NULL,
  audience_id   uuid,
  added_after   timestamptz,
  added_until   timestamptz,
  cursor        bigint NOT NULL DEFAULT 0,
  entered       integer NOT NULL DEFAULT 0,
  done_at       timestamptz,
  error         text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX journey_enrolments_open ON journey_enrolments (created_at) WHERE done_at IS NULL;
CREATE INDEX journey_enrolments_audience ON journey_enrolments (journey_id, version, step_id, added_until DESC);
-- A refresh's range is enrolled once however many notifications name it.
CREATE UNIQUE INDEX journey_enrolments_range ON journey_enrolments (journey_id, version, step_id, added_after) WHERE added_after IS NOT NULL;

-- Postback calls (actionPostback): written with the transition, called outside it by the postback
-- worker (a lease like the outbox's), at least once: a retry carries the same Idempotency-Key.
CREATE TABLE journey_postbacks (
  id            bigserial PRIMARY KEY,
  app_id        uuid NOT NULL,
  journey_id    uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  version       integer NOT NULL,
  entry_id      bigint NOT NULL REFERENCES journey_entries(id) ON DELETE CASCADE,
  person_id     bigint NOT NULL,
  step_id       text NOT NULL,
  -- The campaign of the entry's last message when the step was passed ({{campaignId}}, {{campaignType}}).
  campaign_id   text,
  campaign_type text,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ok', 'failed')),
  attempts      integer NOT NULL DEFAULT 0,
  next_at       timestamptz NOT NULL,
  locked_by     text,
  locked_until  timestamptz,
  response_status integer,
  error         text,
  created_at    timestamptz NOT NULL,
  done_at       timestamptz,
  UNIQUE (entry_id, step_id)
);
CREATE INDEX journey_postbacks_due ON journey_postbacks (next_at) WHERE status = 'pending';
