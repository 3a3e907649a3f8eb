-- Two facts about a person that the message what-if (api-server/src/features/messageWhatIf/whatIf.ts)
-- and the segment condition "push active" read for every person of a target, kept on the person
-- row so that a count over a million people is one plain scan of `people`, with no JSON parsing and
-- no join to the devices (docs/BENCHMARKS.md, "Message what-if": the JSON and the join were 90% of
-- its time).
--
-- time_zone: the profile's `timezone` attribute (the SDK's profile field, an import's column), as
-- written; a stored generated column, so every path that writes `attributes` keeps it, and nothing
-- else can write it. An empty string is no zone.
ALTER TABLE people ADD COLUMN time_zone text GENERATED ALWAYS AS (nullif(attributes->>'timezone', '')) STORED;

-- push_devices: how many of the person's devices can receive a push now (a push token and push
-- enabled: the definition the segment engine used). Kept by the triggers below on every insert,
-- update and delete of a device, whichever code path does it (ingest, identify merges moving
-- devices, imports, tests). A counter moved by +1/-1 rather than a flag recomputed with EXISTS:
-- two transactions changing two devices of one person at once each see only their own change, and
-- a recomputed flag would keep the last writer's stale answer; increments under the person row's
-- lock always add up.
ALTER TABLE people ADD COLUMN push_devices integer NOT NULL DEFAULT 0;

UPDATE people p SET push_devices = d.n
  FROM (SELECT app_id, person_id, count(*)::int AS n FROM devices
         WHERE coalesce(push_token, '') <> '' AND push_enabled IS TRUE GROUP BY app_id, person_id) d
 WHERE p.app_id = d.app_id AND p.id = d.person_id;

CREATE FUNCTION gd_device_push_reach() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF coalesce(OLD.push_token, '') <> '' AND OLD.push_enabled IS TRUE THEN
      UPDATE people SET push_devices = push_devices - 1 WHERE app_id = OLD.app_id AND id = OLD.person_id;
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    IF coalesce(NEW.push_token, '') <> '' AND NEW.push_enabled IS TRUE THEN
      UPDATE people SET push_devices = push_devices + 1 WHERE app_id = NEW.app_id AND id = NEW.person_id;
    END IF;
  END IF;
  RETURN NULL;
END $$;

-- Each fires only when the device's reach or its person changes, so the ingest upsert of a device
-- seen before (the hot path) costs nothing more.
CREATE TRIGGER devices_push_reach_insert AFTER INSERT ON devices FOR EACH ROW
  WHEN (coalesce(NEW.push_token, '') <> '' AND NEW.push_enabled IS TRUE)
  EXECUTE FUNCTION gd_device_push_reach();
CREATE TRIGGER devices_push_reach_update AFTER UPDATE OF person_id, push_token, push_enabled ON devices FOR EACH ROW
  WHEN (OLD.person_id IS DISTINCT FROM NEW.person_id
        OR (coalesce(OLD.push_token, '') <> '' AND OLD.push_enabled IS TRUE)
           IS DISTINCT FROM (coalesce(NEW.push_token, '') <> '' AND NEW.push_enabled IS TRUE))
  EXECUTE FUNCTION gd_device_push_reach();
CREATE TRIGGER devices_push_reach_delete AFTER DELETE ON devices FOR EACH ROW
  WHEN (coalesce(OLD.push_token, '') <> '' AND OLD.push_enabled IS TRUE)
  EXECUTE FUNCTION gd_device_push_reach();
