-- Versions of what GET /user/meta shows (the user, its role, the account, the account's apps), so
-- each API process can keep the signed-in principal and the serialised meta answer per user and use
-- them again while nothing in them changed.
--
-- Every request reads `accounts.meta_version` and `users.meta_version` in the one principal query it
-- makes; what a process kept is used only when both are the ones it was read under. Triggers bump
-- them in the same transaction as the write, whoever makes it (a route, a seed, SQL by hand), so no
-- code path can forget to, and no process can see the new data with an old version:
--   users       any update of the row bumps its own version (profile, role, activation, login time);
--               insert and delete also bump the account's;
--   accounts    any update of the row bumps its own version (name, plan, support level);
--   apps        insert, update (name, key, restricted list...) and delete bump the account's version;
--   user_roles  insert, update (user type, grants) and delete bump the account's version.
-- Every value comes from one sequence, so a value is never issued twice: not after a rolled-back
-- bump, nor for a row deleted and inserted again with the same id. A (account, user) pair of
-- versions therefore names one state of that user's principal and meta for good.

CREATE SEQUENCE gd_meta_version;
ALTER TABLE accounts ADD COLUMN meta_version bigint NOT NULL DEFAULT nextval('gd_meta_version');
ALTER TABLE users ADD COLUMN meta_version bigint NOT NULL DEFAULT nextval('gd_meta_version');

-- BEFORE UPDATE: the row takes a new version unless the statement itself set one (the triggers
-- below do), so one write bumps once.
CREATE FUNCTION gd_bump_own_meta_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.meta_version IS NOT DISTINCT FROM OLD.meta_version THEN
    NEW.meta_version := nextval('gd_meta_version');
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER accounts_meta_version BEFORE UPDATE ON accounts
  FOR EACH ROW EXECUTE FUNCTION gd_bump_own_meta_version();
CREATE TRIGGER users_meta_version BEFORE UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION gd_bump_own_meta_version();

-- AFTER each row of apps and user_roles (and users inserted or deleted): the owning account takes a
-- new version (both accounts when a row moves between accounts). When the account itself is being
-- deleted (cascade), its row is already gone and the UPDATE touches nothing.
CREATE FUNCTION gd_bump_account_meta_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE accounts SET meta_version = nextval('gd_meta_version') WHERE id = OLD.account_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.account_id IS DISTINCT FROM OLD.account_id) THEN
    UPDATE accounts SET meta_version = nextval('gd_meta_version') WHERE id = NEW.account_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER apps_meta_version AFTER INSERT OR UPDATE OR DELETE ON apps
  FOR EACH ROW EXECUTE FUNCTION gd_bump_account_meta_version();
CREATE TRIGGER user_roles_meta_version AFTER INSERT OR UPDATE OR DELETE ON user_roles
  FOR EACH ROW EXECUTE FUNCTION gd_bump_account_meta_version();
CREATE TRIGGER users_account_meta_version AFTER INSERT OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION gd_bump_account_meta_version();
