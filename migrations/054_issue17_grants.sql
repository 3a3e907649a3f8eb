-- Issue 17: the built-in roles of accounts that existed before landings, wallet and skudo take
-- their new write keys, as new accounts' roles get them at provisioning (shared permissions/
-- roles.ts: Client, Admin, Manager, Client P. manager and Agency hold them). Integrations (048)
-- and categories (051) did the same for their own keys.
UPDATE user_roles SET grants = grants || ARRAY(
    SELECT k FROM unnest(ARRAY['api:landings.edit', 'api:wallet.edit', 'api:skudo.edit']) AS k WHERE NOT (k = ANY(grants)))
 WHERE built_in IN ('client', 'admin', 'manager', 'client_pm', 'agency');
