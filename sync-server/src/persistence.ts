/**
 * Documents live in Postgres (`documents`, one full Yjs state per name). Loading applies the stored
 * state, or creates the initial content here on the server (never on a client) and stores it at once;
 * then runs the document migrations. Storing writes the full `encodeStateAsUpdate` (no
 * `Y.mergeUpdates`). A store never throws edits away: it retries with backoff inside the hook (so
 * Hocuspocus keeps the document loaded meanwhile), and a document with unstored changes refuses to
 * unload and schedules another store.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as Y from 'yjs';
import {
  initJourneyDoc, initMessageDoc, initSegmentDoc, migrateDoc, parseDocName, type DocKind, type DocNameParts,
} from '@gd/shared';
import type { Document, Extension, Hocuspocus } from '@hocuspocus/server';
import type { Logger } from 'pino';
import { insertDocumentIfAbsent, loadDocumentState, storeDocumentState, type Db } from './repository.ts';

/** Initial content per kind; each writes nothing into a document that already has its kind. */
const INIT: Record<DocKind, (doc: Y.Doc, name: string) => boolean> = {
  journey: initJourneyDoc,
  segment: initSegmentDoc,
  message: initMessageDoc,
};

export interface RetryPolicy { initialMs: number; maxMs: number }
const DEFAULT_RETRY: RetryPolicy = { initialMs: 100, maxMs: 5_000 };

/** Change counters per loaded document: `changes` counts updates, `stored` the last count written. */
interface Progress { changes: number; stored: number }

export class Persistence implements Extension {
  readonly extensionName = 'gd-persistence';
  private readonly progress = new WeakMap<Y.Doc, Progress>();
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
    let state = await this.withRetry('load', documentName, () => loadDocumentState(this.db, documentName), 5);
    if (!state) {
      const seed = new Y.Doc();
      INIT[parts.kind](seed, documentName);
      const initial = Y.encodeStateAsUpdate(seed);
      seed.destroy();
      // Another process may be seeding the same document: the first stored state wins everywhere.
      const inserted = await insertDocumentIfAbsent(this.db, documentName, parts, initial);
      state = inserted ? initial : await loadDocumentState(this.db, documentName);
      if (!state) throw new Error(`document ${documentName} vanished while loading`);
    }
    Y.applyUpdate(document, state);
    if (this.upgrade(document, parts)) await this.write(documentName, parts, document);
    this.progress.set(document, { changes: 0, stored: 0 });
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
    const parts = parseDocName(documentName);
    if (!parts) throw new Error(`unknown document name ${documentName}`);
    // Nothing changed since the last write (a direct connection closing, a Redis peer's echo).
    if (this.progress.has(document) && !this.isDirty(document)) return;
    await this.write(documentName, parts, document);
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

  /** Write the full current state, retrying until it is written (or shutdown gives up). */
  private async write(name: string, parts: DocNameParts, document: Y.Doc): Promise<void> {
    await this.withRetry('store', name, async () => {
      const p = this.progress.get(document);
      const mark = p?.changes ?? 0;
      const state = Y.encodeStateAsUpdate(document);
      await storeDocumentState(this.db, name, parts, state);
      if (p) p.stored = Math.max(p.stored, mark);
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
