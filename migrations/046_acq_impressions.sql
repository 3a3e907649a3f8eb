-- Ad impressions (issue 16): a network shows the ad and loads the link's impression pixel
-- (GET /l/:code/i on the link host). Counted per link and UTC hour (so any time zone's days add up
-- exactly); bots and prefetchers are not counted. They feed the campaign metric "impressions".
CREATE TABLE acq_impressions (
  app_id      uuid NOT NULL,
  link_id     uuid NOT NULL,
  hour        timestamptz NOT NULL,
  campaign_id uuid NOT NULL,
  count       bigint NOT NULL,
  PRIMARY KEY (app_id, link_id, hour)
);
CREATE INDEX acq_impressions_campaign ON acq_impressions (app_id, campaign_id, hour);
