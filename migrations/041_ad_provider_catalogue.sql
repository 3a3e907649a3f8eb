-- Acquisition (issue 16, piece A): the platform's ad provider catalogue, seeded with providers of
-- every kind of SPEC §3 "Ad providers" (platform administrators change it at /admin/providers), and
-- an index to find the campaigns of an account provider's sources.
-- Postback templates are left empty: each account sets its own on its providers (the templates a
-- network gives its advertisers carry the advertiser's own keys).
INSERT INTO ad_providers (kind, name, website) VALUES
  ('social', 'Meta Ads', 'https://www.facebook.com/business/ads'),
  ('social', 'Snapchat Ads', 'https://forbusiness.snapchat.com'),
  ('social', 'X Ads', 'https://ads.x.com'),
  ('social', 'LinkedIn Ads', 'https://business.linkedin.com/marketing-solutions/ads'),
  ('social', 'Pinterest Ads', 'https://ads.pinterest.com'),
  ('search', 'Google Ads', 'https://ads.google.com'),
  ('search', 'Yandex Direct', 'https://direct.yandex.com'),
  ('appStoreSearch', 'Apple Search Ads', 'https://searchads.apple.com'),
  ('shortVideo', 'TikTok for Business', 'https://www.tiktok.com/business'),
  ('shortVideo', 'Kwai for Business', 'https://www.kwai.com/business'),
  ('dating', 'Tinder Ads', 'https://www.tinderpressroom.com/advertising'),
  ('petal', 'Petal Ads', 'https://ads.huawei.com'),
  ('tradeDesk', 'The Trade Desk', 'https://www.thetradedesk.com'),
  ('microsoft', 'Microsoft Advertising', 'https://ads.microsoft.com'),
  ('retail', 'Amazon Ads', 'https://advertising.amazon.com'),
  ('other', 'Unity Ads', 'https://unity.com/products/unity-ads'),
  ('other', 'AppLovin', 'https://www.applovin.com'),
  ('other', 'ironSource Ads', 'https://www.is.com')
ON CONFLICT DO NOTHING;

CREATE INDEX acq_sources_provider ON acq_sources (account_provider_id) WHERE deleted_at IS NULL AND account_provider_id IS NOT NULL;
