-- Sessions revoked recently (their access tokens may still be presented) are read with the
-- principal, which is reloaded whenever a revocation moves the user's meta version (see
-- api-server/src/features/auth/sessions.ts). This index keeps that read to the user's revoked rows.
CREATE INDEX refresh_tokens_user_revoked ON refresh_tokens (user_id, revoked_at) WHERE revoked_at IS NOT NULL;

-- Role ids are scoped by account: a PUT /user-roles/{id} naming another account's role creates
-- the role in the caller's account exactly as for an unused id, so nothing tells an intruder that
-- the id exists elsewhere. Users already reference (account_id, id).
ALTER TABLE users DROP CONSTRAINT users_account_id_role_id_fkey;
ALTER TABLE user_roles DROP CONSTRAINT user_roles_pkey;
ALTER TABLE user_roles DROP CONSTRAINT user_roles_account_id_id_key;
ALTER TABLE user_roles ADD PRIMARY KEY (account_id, id);
ALTER TABLE users ADD CONSTRAINT users_account_id_role_id_fkey FOREIGN KEY (account_id, role_id) REFERENCES user_roles (account_id, id);
CREATE INDEX user_roles_id ON user_roles (id);
