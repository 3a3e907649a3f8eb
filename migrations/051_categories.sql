-- Categories (issue 17, piece D; /manage/categories): labels of the account, each with a colour
-- (#RRGGBB, SPEC §5) and the entity types it applies to, assigned to apps, campaigns and messages
-- and used by list filters and the `app_cats` postback macro.
--
-- entity_types: what the category may label: 'app' (apps), 'campaign' (apptracker campaigns,
--               acq_campaigns, and message campaigns, campaigns of migration 014), 'message'.
-- category_assignments: many-to-many; app_id is the app the labelled entity belongs to (the app
--               itself for 'app'), so deleting an app drops its assignments (cascade) and every
--               read is scoped by app as well as by entity. A deleted category drops its
--               assignments (cascade); a deleted entity drops its own through the triggers below
--               (rows deleted, or soft-deleted: deleted_at set).

CREATE TABLE categories (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name         text NOT NULL,
  colour       text NOT NULL CHECK (colour ~ '^#[0-9A-Fa-f]{6}$'),
  entity_types text[] NOT NULL CHECK (cardinality(entity_types) > 0 AND entity_types <@ ARRAY['app', 'campaign', 'message']::text[]),
  created_by   uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX categories_account_name ON categories (account_id, lower(name));

CREATE TABLE category_assignments (
  category_id uuid NOT NULL REFERENCES categories(id) ON DELETE CASCADE,
  entity_type text NOT NULL CHECK (entity_type IN ('app', 'campaign', 'message')),
  entity_id   uuid NOT NULL,
  app_id      uuid NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (category_id, entity_type, entity_id)
);
-- The filters: an app's entities of a type with a category, and an entity's categories.
CREATE INDEX category_assignments_app ON category_assignments (app_id, entity_type, entity_id);

-- An entity gone (deleted, or soft-deleted) takes its assignments with it. TG_ARGV[0]: its type.
CREATE FUNCTION gd_forget_category_assignments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM category_assignments WHERE entity_type = TG_ARGV[0] AND entity_id = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER acq_campaigns_categories_deleted AFTER DELETE ON acq_campaigns
  FOR EACH ROW EXECUTE FUNCTION gd_forget_category_assignments('campaign');
CREATE TRIGGER acq_campaigns_categories_soft_deleted AFTER UPDATE OF deleted_at ON acq_campaigns
  FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION gd_forget_category_assignments('campaign');
CREATE TRIGGER campaigns_categories_deleted AFTER DELETE ON campaigns
  FOR EACH ROW EXECUTE FUNCTION gd_forget_category_assignments('campaign');
CREATE TRIGGER campaigns_categories_soft_deleted AFTER UPDATE OF deleted_at ON campaigns
  FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION gd_forget_category_assignments('campaign');
CREATE TRIGGER messages_categories_deleted AFTER DELETE ON messages
  FOR EACH ROW EXECUTE FUNCTION gd_forget_category_assignments('message');
CREATE TRIGGER messages_categories_soft_deleted AFTER UPDATE OF deleted_at ON messages
  FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION gd_forget_category_assignments('message');

-- The built-in roles that hold the account's write-like powers (shared permissions/roles.ts: Client,
-- Admin, Manager, Client P. manager, Agency) take the new key `api:categories.edit` in the
-- accounts that existed before it, as new accounts' roles get it at provisioning.
UPDATE user_roles SET grants = array_append(grants, 'api:categories.edit')
 WHERE built_in IN ('client', 'admin', 'manager', 'client_pm', 'agency') AND NOT ('api:categories.edit' = ANY(grants));
