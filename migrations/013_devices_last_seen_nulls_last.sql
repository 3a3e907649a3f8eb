-- A device that has sent no event yet has no last seen (NULL, migration 012). Reading an app's
-- devices newest first (segment value suggestions: api-server/src/features/segments/values.ts)
-- puts them last (DESC NULLS LAST), so devices never seen do not fill the bounded sample. A plain
-- DESC index orders NULLs first and cannot serve that order: rebuild it with the same order.
DROP INDEX devices_last_seen;
CREATE INDEX devices_last_seen ON devices (app_id, last_seen_at DESC NULLS LAST);
