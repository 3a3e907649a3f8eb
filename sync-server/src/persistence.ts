/**
 * Documents live in Postgres: `documents` holds one full Yjs state per name, `document_updates` the
 * log of client updates since (migration 009).
 *
 * - An update a client sends is appended to the log before it is applied and acknowledged
 *   (`append`, called from the access hook's `beforeSync`), so an edit the client was told is saved
 *   survives a SIGKILL right after the acknowledgement.
 * - Loading applies the stored state and then every logged update, or creates the initial content
 *   here on the server (never on a client) and stores it at once; then runs the document migrations.
 *   A document loaded with logged updates is compacted at once.
 * - Storing (debounced) writes the full `encodeStateAsUpdate` (no `Y.mergeUpdates`) over the state
 *   this process last read or wrote (`store_count` as an optimistic lock; another process's newer
 *   state is merged in first), then deletes the logged updates that the written state contains.
 * - A store never throws edits away: it retries with backoff inside the hook (so Hocuspocus keeps
 *   the document loaded meanwhile), and a document with unstored changes refuses to unload and
 *   schedules another store.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as Y from 'yjs';
import {
  initDashboardDoc, initJourneyDoc, initMessageDoc, initSegmentDoc, migrateDoc, parseDocName, type DocKind, type DocNameParts,
} from '@gd/shared';
import type { Document, Extension, Hocuspocus } from '@hocuspocus/server';
import type { Logger } from 'pino';
import {
  appendUpdates, deleteLoggedUpdates, insertDocumentIfAbsent, loadDocument, loggedUpdates, storeDocumentState,
  type AccessFence, type Db, type LogEntry, type StoredDocument,
} from './repository.ts';

/** Initial content per kind; each writes nothing into a document that already has its kind. */
const INIT: Record<DocKind, (doc: Y.Doc, name: string) => boolean> = {
  journey: initJourneyDoc,
  segment: initSegmentDoc,
  message: initMessageDoc,
  dashboard: initDashboardDoc,
};

export interface RetryPolicy { initialMs: number; maxMs: number }
const DEFAULT_RETRY: RetryPolicy = { initialMs: 100, maxMs: 5_000 };

/**
 * Per loaded document: `changes` counts updates, `stored` the last count written, `storeCount` the
 * stored row's version this process last read or wrote.
 */
interface Progress { changes: number; stored: number; storeCount: number }

/** Whether a written snapshot holds a logged update (a row that cannot be decoded: never). */
function contains(snapshot: Y.Snapshot, update: Uint8Array): boolean {
  try {
    return Y.snapshotContainsUpdate(snapshot, update);
  } catch {
    return false;
  }
}

/** Most updates logged by one statement. */
const LOG_BATCH = 500;

/** An empty Yjs update (no structs, no deletions): a client's catch-up with nothing new. */
const isEmptyUpdate = (update: Uint8Array) => update.byteLength <= 2 && update.every((b) => b === 0);

export class Persistence implements Extension {
  readonly extensionName = 'gd-persistence';
  private readonly progress = new WeakMap<Y.Doc, Progress>();
  private readonly logQueue: { entry: LogEntry; resolve: (logged: boolean) => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;
  private readonly giveUp = new AbortController();
  private stopping = false;
  private readonly db: Db;
  private readonly log: Logger;
  private readonly retry: RetryPolicy;

  constructor(opts: { db: Db; log: Logger; retry?: Partial<RetryPolicy> | undefined }) {
    this.db = opts.db;
    this.log = opts.log;
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
  }

  /** Whether the document holds changes that are not in the database yet. */
  isDirty(document: Y.Doc): boolean {
    const p = this.progress.get(document);
    return p !== undefined && p.changes > p.stored;
  }

  /** Shutdown: from now on unloading stores at once instead of after the debounce. */
  beginShutdown(): void {
    this.stopping = true;
  }

  /** Shutdown deadline passed: stop retrying failed stores (their edits remain in the clients). */
  abandonRetries(): void {
    this.giveUp.abort();
  }

  async onLoadDocument({ documentName, document }: { documentName: string; document: Document }): Promise<void> {
    const parts = parseDocName(documentName);
    if (!parts) throw new Error(`unknown document name ${documentName}`);
    let stored = await this.withRetry('load', documentName, () => loadDocument(this.db, documentName), 5);
    if (!stored) {
      const seed = new Y.Doc();
      INIT[parts.kind](seed, documentName);
      const initial = Y.encodeStateAsUpdate(seed);
      seed.destroy();
      // Another process may be seeding the same document: the first stored state wins everywhere.
      const inserted = await insertDocumentIfAbsent(this.db, documentName, parts, initial);
      stored = inserted ? { state: initial, storeCount: 1, log: [] } : await loadDocument(this.db, documentName);
      if (!stored) throw new Error(`document ${documentName} vanished while loading`);
    }
    Y.applyUpdate(document, stored.state);
    this.applyLog(documentName, document, stored.log);
    this.progress.set(document, { changes: 0, stored: 0, storeCount: stored.storeCount });
    if (this.upgrade(document, parts) || stored.log.length > 0) await this.write(documentName, document);
  }

  /** Apply logged updates; one that cannot be applied (it never could) is skipped, never fatal. */
  private applyLog(documentName: string, document: Y.Doc, log: StoredDocument['log']): void {
    for (const { id, update } of log) {
      try {
        Y.applyUpdate(document, update);
      } catch (error) {
        this.log.error({ err: error, doc: documentName, logId: id }, 'logged update could not be applied; skipped');
      }
    }
  }

  /**
   * Append a client's update to the log before it is applied and acknowledged; false when the
   * sender's access changed since `fence` (nothing logged: decide access again).
   */
  append(documentName: string, update: Uint8Array, fence: AccessFence): Promise<boolean> {
    if (isEmptyUpdate(update)) return Promise.resolve(true);
    return new Promise((resolve, reject) => {
      this.logQueue.push({ entry: { name: documentName, update, fence }, resolve, reject });
      if (!this.flushing) void this.flushLog();
    });
  }

  /**
   * Group commit: one INSERT in flight at a time; updates arriving meanwhile go together in the
   * next one. An idle server logs an update at once, a busy one amortises the round trip.
   */
  private async flushLog(): Promise<void> {
    this.flushing = true;
    while (this.logQueue.length) {
      const batch = this.logQueue.splice(0, LOG_BATCH);
      try {
        const logged = await appendUpdates(this.db, batch.map((b) => b.entry));
        batch.forEach((b, i) => b.resolve(logged.has(i)));
      } catch (error) {
        // One entry's failure must not fail the others: alone, each succeeds or fails on its own.
        if (batch.length === 1) batch[0]?.reject(error);
        else await Promise.all(batch.map((b) => appendUpdates(this.db, [b.entry]).then((logged) => b.resolve(logged.has(0)), b.reject)));
      }
    }
    this.flushing = false;
  }

  /** Migrate the loaded document to the current schema; true when it changed (store it now). */
  private upgrade(document: Document, parts: DocNameParts): boolean {
    const result = migrateDoc(document);
    switch (result.status) {
      case 'current':
        return false;
      case 'migrated':
        this.log.info({ doc: document.name, from: result.from, to: result.to }, 'document migrated');
        return true;
      case 'uninitialized':
        // A stored state without meta (written before initial content existed): initialise it now.
        this.log.warn({ doc: document.name }, 'stored document had no kind; initialising it');
        return INIT[parts.kind](document, document.name);
      case 'too_new':
      case 'no_path':
      case 'unknown_kind':
        // Served as it is: clients of newer code can still edit; older clients see `too_new` and reload.
        this.log.warn({ doc: document.name, migration: result }, 'document not migrated');
        return false;
      default: {
        const never: never = result;
        throw new Error(`unknown migration result ${JSON.stringify(never)}`);
      }
    }
  }

  onChange({ document }: { document: Document }): Promise<void> {
    const p = this.progress.get(document);
    if (p) p.changes += 1;
    return Promise.resolve();
  }

  async onStoreDocument({ documentName, document }: { documentName: string; document: Document }): Promise<void> {
    // Nothing changed since the last write (a direct connection closing, a Redis peer's echo).
    if (this.progress.has(document) && !this.isDirty(document)) return;
    await this.write(documentName, document);
  }

  /** Keep a document with unstored changes in memory, and schedule the store that will unload it. */
  beforeUnloadDocument({ document, instance }: { document: Document; instance: Hocuspocus }): Promise<void> {
    if (!this.isDirty(document)) return Promise.resolve();
    this.log.warn({ doc: document.name }, 'unload deferred: unstored changes');
    void this.scheduleStore(instance, document, this.stopping);
    return Promise.reject(new Error('document has unstored changes'));
  }

  /** Run Hocuspocus's store chain (other extensions' hooks included), now or after the debounce. */
  scheduleStore(instance: Hocuspocus, document: Document, now: boolean): Promise<unknown> {
    return instance.storeDocumentHooks(document, {
      instance, document, documentName: document.name, clientsCount: document.getConnectionsCount(),
      lastContext: {}, lastTransactionOrigin: { source: 'local' },
    }, now);
  }

  /**
   * Write the full current state, retrying until it is written (or shutdown gives up), then drop the
   * logged updates it contains. When another process wrote the row since this one last did, its
   * state is merged into the document first (CRDT: every replica converges to it anyway).
   */
  private async write(name: string, document: Y.Doc): Promise<void> {
    await this.withRetry('store', name, async () => {
      const p = this.progress.get(document);
      for (;;) {
        const mark = p?.changes ?? 0;
        const state = Y.encodeStateAsUpdate(document);
        const written = Y.snapshot(document);
        const count = await storeDocumentState(this.db, name, state, p?.storeCount ?? 1);
        if (count === undefined) {
          const newer = await loadDocument(this.db, name);
          if (!newer) {
            // The row was deleted under a loaded document: store it anew rather than lose its edits.
            const parts = parseDocName(name);
            if (!parts) throw new Error(`unknown document name ${name}`);
            await insertDocumentIfAbsent(this.db, name, parts, state);
            if (p) p.storeCount = 1;
            continue;
          }
          Y.applyUpdate(document, newer.state);
          this.applyLog(name, document, newer.log);
          if (p) p.storeCount = newer.storeCount;
          continue;
        }
        if (p) {
          p.storeCount = count;
          p.stored = Math.max(p.stored, mark);
        }
        const covered = (await loggedUpdates(this.db, name)).filter((row) => contains(written, row.update));
        await deleteLoggedUpdates(this.db, covered.map((row) => row.id));
        return;
      }
    });
  }

  private async withRetry<T>(what: string, doc: string, fn: () => Promise<T>, maxAttempts = Infinity): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await fn();
      } catch (error) {
        if (attempt >= maxAttempts || this.giveUp.signal.aborted) throw error;
        const wait = Math.min(this.retry.initialMs * 2 ** (attempt - 1), this.retry.maxMs);
        this.log.warn({ err: error, doc, attempt, retryInMs: wait }, `${what} failed, retrying`);
        await sleep(wait, undefined, { signal: this.giveUp.signal }).catch(() => undefined);
      }
    }
  }
}
