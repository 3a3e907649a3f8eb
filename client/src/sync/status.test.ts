import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { MessageType } from '@hocuspocus/provider';
import { describe, expect, it } from 'vitest';
import { isRefusedSyncStatus, isTransientRefusal, isUpdateRejection, retryDelay, syncStatus, type MessageReader, type StatusInput } from './status.ts';

const base: StatusInput = { phase: 'open', browserOnline: true, socket: 'connected', synced: true, lostSinceSync: false, unsynced: 0 };

describe('syncStatus', () => {
  it('is loading while the browser copy is read, error when the document cannot be opened', () => {
    expect(syncStatus({ ...base, phase: 'opening' })).toBe('loading');
    expect(syncStatus({ ...base, phase: 'failed' })).toBe('error');
  });

  it('is online when connected, synced and nothing is pending', () => {
    expect(syncStatus(base)).toBe('online');
  });

  it('is syncing while changes wait for the server or the first sync is under way', () => {
    expect(syncStatus({ ...base, unsynced: 2 })).toBe('syncing');
    expect(syncStatus({ ...base, synced: false, socket: 'connecting' })).toBe('syncing');
  });

  it('is offline when the browser is, or while reconnecting after a drop (no flicker)', () => {
    expect(syncStatus({ ...base, browserOnline: false })).toBe('offline');
    expect(syncStatus({ ...base, synced: false, socket: 'connecting', lostSinceSync: true })).toBe('offline');
    expect(syncStatus({ ...base, synced: false, socket: 'disconnected', lostSinceSync: true })).toBe('offline');
  });
});

describe('connection helpers', () => {
  it('recognises the server refusing an update by code or by reason', () => {
    expect(isUpdateRejection({ code: 4422, reason: '' }, 4422, 'update-rejected:')).toBe(true);
    expect(isUpdateRejection({ code: 1000, reason: 'update-rejected:malformed' }, 4422, 'update-rejected:')).toBe(true);
    expect(isUpdateRejection({ code: 1000, reason: 'bye' }, 4422, 'update-rejected:')).toBe(false);
    expect(isUpdateRejection(undefined, 4422, 'update-rejected:')).toBe(false);
  });

  it('retries token problems and gives up on real refusals', () => {
    expect(isTransientRefusal('token expired')).toBe(true);
    expect(isTransientRefusal('Failed to get token during sendToken(): network')).toBe(true);
    expect(isTransientRefusal('no access to this document')).toBe(false);
    expect(isTransientRefusal('journey not found')).toBe(false);
  });

  it('backs off from 1 s to at most 15 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 15000, 15000]);
  });

  // Framed as the server writes it (document address, message type, payload) and read as the
  // provider's IncomingMessage reads it (lib0, the encoding Yjs and Hocuspocus use).
  const message = (write: (e: encoding.Encoder) => void): MessageReader => {
    const e = encoding.createEncoder();
    encoding.writeVarString(e, 'acc/app/journey/0b4c');
    write(e);
    const d = decoding.createDecoder(encoding.toUint8Array(e));
    return { readVarString: () => decoding.readVarString(d), readVarUint: () => decoding.readVarUint(d) };
  };
  const status = (applied: boolean) => message((e) => {
    encoding.writeVarUint(e, MessageType.SyncStatus);
    encoding.writeVarUint(e, applied ? 1 : 0);
  });

  it('recognises the server saying an update of a read-only connection was not applied', () => {
    expect(isRefusedSyncStatus(status(false), MessageType.SyncStatus)).toBe(true);
    expect(isRefusedSyncStatus(status(true), MessageType.SyncStatus)).toBe(false);
    // Another message whose payload starts with 0 (a sync step 1), a truncated one.
    expect(isRefusedSyncStatus(message((e) => { encoding.writeVarUint(e, MessageType.Sync); encoding.writeVarUint(e, 0); }), MessageType.SyncStatus)).toBe(false);
    expect(isRefusedSyncStatus(message((e) => encoding.writeVarUint(e, MessageType.SyncStatus)), MessageType.SyncStatus)).toBe(false);
  });
});
