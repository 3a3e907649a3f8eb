-- The segment engine reads whether a person sent an event on some local days from the person-month
-- day bitmaps of migration 034 (event_person_months) instead of the events themselves: a few narrow
-- rows per person instead of every event (a 30-day window of a popular event is millions of wide
-- rows, and its scan was most of an event segment's time).
--
-- The bits of `p_month`'s days in the half-open range of local days [p_from, p_to); an open end is
-- NULL. Days past the month's end have no bit set in the data, so asking for them costs nothing.
CREATE FUNCTION gd_month_days_mask(p_month date, p_from date, p_to date) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN hi < lo THEN 0 ELSE ((((1::bigint << (hi - lo + 1)) - 1) << (lo - 1)))::integer END
    FROM (SELECT CASE WHEN p_from IS NULL OR p_from <= p_month THEN 1 ELSE p_from - p_month + 1 END AS lo,
                 CASE WHEN p_to IS NULL THEN 31 ELSE LEAST(31, p_to - p_month) END AS hi) AS b
$$;
