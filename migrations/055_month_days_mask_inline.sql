-- gd_month_days_mask (migration 039) as one expression without FROM, so the planner inlines it
-- into the segment engine's event conditions instead of calling a SQL function once per
-- person-month row: an event segment over a 30-day window of a popular event reads about 1.3
-- million such rows, and the calls were 2.6 of the what-if's 3.5 seconds (docs/BENCHMARKS.md,
-- message what-if). Same answers: the bits of `p_month`'s days in the half-open range of local days
-- [p_from, p_to), an open end NULL.
CREATE OR REPLACE FUNCTION gd_month_days_mask(p_month date, p_from date, p_to date) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN (CASE WHEN p_to IS NULL THEN 31 ELSE LEAST(31, p_to - p_month) END)
       < (CASE WHEN p_from IS NULL OR p_from <= p_month THEN 1 ELSE p_from - p_month + 1 END) THEN 0
    ELSE ((((1::bigint << ((CASE WHEN p_to IS NULL THEN 31 ELSE LEAST(31, p_to - p_month) END)
                          - (CASE WHEN p_from IS NULL OR p_from <= p_month THEN 1 ELSE p_from - p_month + 1 END) + 1)) - 1)
           << ((CASE WHEN p_from IS NULL OR p_from <= p_month THEN 1 ELSE p_from - p_month + 1 END) - 1)))::integer
  END
$$;
