-- Funnels (issue 15, piece A): the per-person evaluation of a funnel, a line-for-line mirror of
-- `evaluatePerson` in shared/src/analytics/funnel.ts (the reference; the integration tests check
-- that both answer alike). The API gathers each person's candidate events as arrays ordered by
-- time (steps' and exclusions' events; every event of the person for strict order) in one pass
-- over the index (app_id, name, event_time), and calls this once per person, so no event row
-- ever leaves the database.
--
--   ts       event instants (epoch seconds), ascending
--   ms       per event, bit k set when it matches step k+1
--   xs       per event, bit e set when it matches exclusion e+1
--   n        steps; mode 'sequential' | 'strict' | 'any'; win the window in seconds
--   range_from, range_to   attempts start at step-1 events in [range_from, range_to)
--   ex_after afterStep of each exclusion (1..n-1)
-- Returns the steps reached by the best attempt (furthest, earliest on a tie), its start and end
-- (latest matched instant) and the array positions of the matched events, or reached 0.
CREATE FUNCTION gd_funnel_eval(
  ts float8[], ms integer[], xs integer[], n integer, mode text, win float8,
  range_from float8, range_to float8, ex_after integer[],
  OUT reached integer, OUT t_start float8, OUT t_end float8, OUT matched integer[]
) LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  len integer := coalesce(array_length(ts, 1), 0);
  nx integer := coalesce(array_length(ex_after, 1), 0);
  i integer; j integer; k integer; o integer; e integer; a integer;
  found integer; r integer; t1 float8; deadline float8; tprev float8; lowest float8; lo float8; hi float8;
  cur integer[];
BEGIN
  reached := 0;
  FOR i IN 1..len LOOP
    t1 := ts[i];
    CONTINUE WHEN (ms[i] & 1) = 0 OR t1 < range_from OR t1 >= range_to;
    deadline := t1 + win;
    cur := ARRAY[i];
    tprev := t1;
    FOR k IN 1..n - 1 LOOP
      lowest := CASE WHEN mode = 'any' THEN t1 ELSE tprev END;
      found := 0;
      FOR j IN 1..len LOOP
        EXIT WHEN ts[j] > deadline;
        IF ts[j] >= lowest AND (ms[j] & (1 << k)) <> 0 AND NOT (j = ANY (cur)) THEN
          found := j;
          EXIT;
        END IF;
      END LOOP;
      IF found > 0 AND mode = 'strict' THEN
        FOR o IN 1..len LOOP
          EXIT WHEN ts[o] >= ts[found];
          IF ts[o] > tprev THEN
            found := 0;
            EXIT;
          END IF;
        END LOOP;
      END IF;
      EXIT WHEN found = 0;
      cur := cur || found;
      tprev := ts[found];
    END LOOP;
    r := array_length(cur, 1);
    FOR e IN 1..nx LOOP
      a := ex_after[e];
      CONTINUE WHEN a >= r;
      lo := least(ts[cur[a]], ts[cur[a + 1]]);
      hi := greatest(ts[cur[a]], ts[cur[a + 1]]);
      FOR o IN 1..len LOOP
        EXIT WHEN ts[o] >= hi;
        IF ts[o] > lo AND (xs[o] & (1 << (e - 1))) <> 0 THEN
          r := a;
          EXIT;
        END IF;
      END LOOP;
    END LOOP;
    IF r > reached THEN
      reached := r;
      t_start := t1;
      matched := cur[1:r];
      SELECT max(ts[m]) INTO t_end FROM unnest(matched) AS m;
      EXIT WHEN r = n;
    END IF;
  END LOOP;
END
$$;
