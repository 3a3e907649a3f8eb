-- Cohorts (issue 15, piece B): the person-month bitmaps of migration 034 in person order, so a
-- retention query reads the start event's and the return event's rows of a million people as two
-- index-only streams sorted by person, aggregates each person as they pass and merge-joins the two,
-- instead of hashing or sorting a million people (api-server/src/features/cohorts/repository.ts,
-- the bitmap path). One more index for ingestion to keep: the upsert of a person-month row touches
-- it only when the row is new or its days change (INCLUDE days), the same rows the primary key takes.
CREATE INDEX IF NOT EXISTS event_person_months_person ON event_person_months (app_id, name, person_id, month) INCLUDE (days);
