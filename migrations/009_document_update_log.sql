-- The sync server's write-ahead log of document updates. Every update a client sends is appended
-- here (in the same statement that checks the sender may still write) BEFORE the server applies it
-- and acknowledges it, so an edit a client was told is saved survives a SIGKILL of the sync server
-- right after the acknowledgement. Loading a document applies its stored state and then every
-- logged update; storing the full state (debounced) deletes the logged updates that state contains.
-- `documents.store_count` becomes the optimistic lock of full-state writes: a process writes only
-- over the state it last read or wrote, else it merges the stored state first, so two processes
-- joined by Redis never overwrite an update that only the other had (and whose log row it deleted).
CREATE TABLE document_updates (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name       text NOT NULL REFERENCES documents(name) ON DELETE CASCADE,
  "update"   bytea NOT NULL,
  user_id    uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_updates_name ON document_updates (name, id);
