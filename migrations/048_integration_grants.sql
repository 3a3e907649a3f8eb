-- Integrations (issue 17, piece A). Every change to an app's integrations (create, edit, connect,
-- test, disconnect, delete) needs the new key `api:integrations.edit` (shared permissions/keys.ts).
-- The built-in roles that hold the account's plumbing (shared permissions/roles.ts: Client, Admin,
-- Manager, Client P. manager; not Agency) take it in the accounts that existed before it, as new
-- accounts' roles get it at provisioning.
UPDATE user_roles SET grants = array_append(grants, 'api:integrations.edit')
 WHERE built_in IN ('client', 'admin', 'manager', 'client_pm') AND NOT ('api:integrations.edit' = ANY(grants));
