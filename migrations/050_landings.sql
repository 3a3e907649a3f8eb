-- Landings (issue 17, piece C): an app's landing pages, built from blocks, published on the link
-- host at /p/<slug> or on a custom domain at /<slug>; their visits per day; and a link's landing
-- as its web fallback. The block model and the decisions are shared/src/landings/model.ts.
--
-- slug:    SPEC §5 slug-like text, unique per domain without regard to case (landings without a
--          domain share the link host's one namespace, across accounts, as short-link codes do).
-- domain:  a custom domain in lower case, or NULL for the link host. The first account that uses a
--          domain keeps it (checked by the API under an advisory lock on the domain).
-- colours: {background, text, accent}, each #RRGGBB. blocks: the ordered blocks (jsonb array).
-- account_id: the app's account, for the domain rule without a join.
CREATE TABLE landings (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  app_id       uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name         text NOT NULL,
  slug         text NOT NULL,
  domain       text CHECK (domain IS NULL OR domain = lower(domain)),
  campaign_id  uuid REFERENCES acq_campaigns(id) ON DELETE SET NULL,
  link_id      uuid REFERENCES acq_links(id) ON DELETE SET NULL,
  colours      jsonb NOT NULL,
  blocks       jsonb NOT NULL DEFAULT '[]',
  status       text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published')),
  published_at timestamptz,
  created_by   uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX landings_address ON landings (coalesce(domain, ''), lower(slug));
CREATE INDEX landings_app ON landings (app_id, created_at DESC);
CREATE INDEX landings_domain ON landings (domain) WHERE domain IS NOT NULL;

-- Visits of people (bots apart), per landing and UTC day; from_links: those reached from a short
-- link (the address carried gd_click).
CREATE TABLE landing_visits (
  landing_id uuid NOT NULL REFERENCES landings(id) ON DELETE CASCADE,
  app_id     uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  day        date NOT NULL,
  visits     integer NOT NULL DEFAULT 0,
  from_links integer NOT NULL DEFAULT 0,
  PRIMARY KEY (landing_id, day)
);

-- A link's landing page: its web fallback on every platform while the landing is published.
ALTER TABLE acq_links ADD COLUMN landing_id uuid REFERENCES landings(id) ON DELETE SET NULL;
CREATE INDEX acq_links_landing ON acq_links (landing_id) WHERE landing_id IS NOT NULL;
