-- "Last seen" is the person's last activity, not the time their data arrived (issue 11).
--
-- devices.last_seen_at is the latest event time the device sent, as the SDK stamped it (the
-- ingestion clamp applies: never later than the event's arrival), and only moves forward: a late
-- batch of an offline SDK, or batches arriving out of order, never move it back. It was also moved
-- to the arrival time by identify and profile calls, which carry no time of their own (an SDK can
-- send them long after the fact): they no longer touch it, so a device that has sent no event yet
-- has no last seen (NULL). "Last seen" of a person is the latest of their devices' (null: never),
-- on the profile, in the list of people seen most recently and in segment and audience samples.
-- first_seen_at only moves back, to the earliest event time (a device's first batch can arrive
-- after a later one). Writes: api-server/src/features/ingest/repository.ts.
ALTER TABLE devices ALTER COLUMN last_seen_at DROP NOT NULL, ALTER COLUMN last_seen_at DROP DEFAULT;

-- Backfill from the stored events. Cheap: per device, min() and max() of its events read one entry
-- per monthly partition from the (app_id, person_id, event_time) index instead of scanning the
-- events. Events a device sent for a person it no longer belongs to (someone else signed in on it)
-- are not counted: it is seen again from its next event. Times ahead of now (a fast clock within
-- the ingestion tolerance) are taken as now.
UPDATE devices d SET
  last_seen_at = (SELECT CASE WHEN max(e.event_time) > now() THEN now() ELSE max(e.event_time) END
                    FROM events e WHERE e.app_id = d.app_id AND e.person_id = d.person_id AND e.device_id = d.id),
  first_seen_at = least(d.first_seen_at,
                        (SELECT min(e.event_time) FROM events e WHERE e.app_id = d.app_id AND e.person_id = d.person_id AND e.device_id = d.id));
