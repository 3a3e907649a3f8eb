import { describe, expect, it } from 'vitest';
import type { ImportTask } from '@gd/shared/schemas/imports';
import { formatBytes, idTypeKey, splitIds, taskProgress } from './progress.ts';

const base: Pick<ImportTask, 'status' | 'type' | 'hasUpload' | 'config' | 'progress' | 'warning' | 'errorName'> = {
  status: 'new', type: 'csv', hasUpload: false, config: { type: 'csv' }, warning: null, errorName: null,
  progress: { rowsRead: 0, rowsMatched: 0, rowsUnmatched: 0, bytesRead: 0, bytesTotal: null },
};

describe('task progress', () => {
  it('waits for the file of a csv task with no upload and no URL', () => {
    expect(taskProgress(base)).toEqual({ phase: 'waitingFile', percent: null });
    expect(taskProgress({ ...base, hasUpload: true })).toEqual({ phase: 'queued', percent: null });
    expect(taskProgress({ ...base, config: { type: 'csv', csvFileURL: 'https://x.test/a.csv' } }).phase).toBe('queued');
    expect(taskProgress({ ...base, type: 'segment', config: { type: 'segment' } }).phase).toBe('queued');
  });

  it('shows the share of bytes read, then matching, while running', () => {
    const running = { ...base, status: 'in_progress' as const, hasUpload: true };
    expect(taskProgress({ ...running, progress: { ...base.progress, bytesRead: 250, bytesTotal: 1000, rowsRead: 10 } })).toEqual({ phase: 'reading', percent: 25 });
    expect(taskProgress({ ...running, progress: { ...base.progress, bytesRead: 999, bytesTotal: 1000 } }).percent).toBe(99);
    expect(taskProgress({ ...running, progress: { ...base.progress, bytesRead: 1000, bytesTotal: 1000 } })).toEqual({ phase: 'resolving', percent: 100 });
    expect(taskProgress({ ...running, progress: { ...base.progress, rowsRead: 5 } })).toEqual({ phase: 'reading', percent: null });
    expect(taskProgress({ ...running, errorName: 'RecoverableTaskError' }).phase).toBe('retrying');
  });

  it('ends done, done with a warning, or failed', () => {
    expect(taskProgress({ ...base, status: 'ready' })).toEqual({ phase: 'done', percent: 100 });
    expect(taskProgress({ ...base, status: 'ready', warning: '3 rows' }).phase).toBe('warning');
    expect(taskProgress({ ...base, status: 'error' }).phase).toBe('failed');
  });
});

describe('formatting', () => {
  it('sizes in the reader\'s number format', () => {
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(35 * 1024 * 1024, 'es')).toBe('35 MB');
    expect(formatBytes(1.25 * 1024 ** 3, 'es')).toBe('1,3 GB');
  });

  it('maps the contract spelling of person ids to a key, and splits id lists', () => {
    expect(idTypeKey('{product}Id')).toBe('productId');
    expect(idTypeKey('deviceId')).toBe('deviceId');
    expect(splitIds(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
  });
});
