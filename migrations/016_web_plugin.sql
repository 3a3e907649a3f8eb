-- The web plugin (/communication/messaging/plugin): per app, whether the web SDK shows the app's
-- in-app messages on its websites, on which domains, and how (placement, accent colour, stacking
-- order, close button). One row per app, written on the first save.
CREATE TABLE web_plugin_settings (
  app_id         uuid PRIMARY KEY REFERENCES apps(id) ON DELETE CASCADE,
  account_id     uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  enabled        boolean NOT NULL DEFAULT false,
  domains        text[] NOT NULL DEFAULT '{}',
  position       text NOT NULL DEFAULT 'bottom' CHECK (position IN ('top','middle','bottom')),
  accent_color   text NOT NULL DEFAULT '#228be6' CHECK (accent_color ~ '^#[0-9a-fA-F]{6}$'),
  z_index        integer NOT NULL DEFAULT 2147483000 CHECK (z_index BETWEEN 1 AND 2147483647),
  close_button   boolean NOT NULL DEFAULT true,
  updated_by     uuid REFERENCES users(id) ON DELETE SET NULL,
  updated_at     timestamptz NOT NULL DEFAULT now()
);
