-- Pinned SFTP host keys, for SFTP imports (import_tasks of type ftp with isSecureFtp) and the SFTP
-- targets of scheduled reports: the server's host key fingerprint in OpenSSH's form (what
-- `ssh-keygen -lf` prints: SHA256: and the key's SHA-256 in base64 without padding), given in
-- advance by the user or recorded by the first successful login (trust on first use). Every later
-- connection must present the same key, else it is refused before any credential is sent
-- (api-server/src/net/fileServers.ts). NULL: none pinned; the next login pins the key it meets.
--
-- A column rather than a field of `config` / `target`: the first login writes it with one
-- compare-and-set (only while it is still NULL and the row still names the server reached), without
-- rewriting the user's settings; the API answers it inside the config / target
-- (shared/src/schemas/imports.ts ftpHostKeyFingerprint, reports.ts hostKeyFingerprint).
ALTER TABLE import_tasks ADD COLUMN sftp_host_key text CHECK (sftp_host_key ~ '^SHA256:[A-Za-z0-9+/]{43}$');
ALTER TABLE scheduled_reports ADD COLUMN sftp_host_key text CHECK (sftp_host_key ~ '^SHA256:[A-Za-z0-9+/]{43}$');
