-- Unique people of one event over a range (events list, explore's people metric) read only the
-- index: the (app, name, time) index also carries the person, so no heap row is fetched once the
-- partition is vacuumed. Same number of indexes on the ingestion path as before.
CREATE INDEX events_app_name_time_person ON events (app_id, name, event_time) INCLUDE (person_id);
DROP INDEX events_app_name_time;
