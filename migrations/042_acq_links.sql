-- Links (issue 16, piece B): the list of /acquisition/links and /acquisition/powlinks counts each
-- link's clicks and reads its latest ones; without this index that is a scan of the app's clicks.
CREATE INDEX acq_clicks_link ON acq_clicks (app_id, link_id, clicked_at);
