/** Pure helpers of the import-task screen: what a task's progress bar shows, sizes, id type keys. */
import type { AudienceIdType } from '@gd/shared/segment/audience';
import type { ImportTask } from '@gd/shared/schemas/imports';
import type { Language } from '@gd/shared/language';

export type Phase = 'waitingFile' | 'queued' | 'reading' | 'resolving' | 'retrying' | 'done' | 'warning' | 'failed';

export interface TaskProgress {
  phase: Phase;
  /** 0–100 when known (bytes of a file of known size); null for an indeterminate bar. */
  percent: number | null;
}

const takesFile = (t: Pick<ImportTask, 'type'>) => t.type === 'csv' || t.type === 'csv_dynamic';

export function taskProgress(task: Pick<ImportTask, 'status' | 'type' | 'hasUpload' | 'config' | 'progress' | 'warning' | 'errorName'>): TaskProgress {
  switch (task.status) {
    case 'ready':
    case 'sync':
      return { phase: task.warning ? 'warning' : 'done', percent: 100 };
    case 'error':
    case 'inactive':
      return { phase: 'failed', percent: null };
    case 'new': {
      const url = 'csvFileURL' in task.config ? task.config.csvFileURL : undefined;
      return { phase: takesFile(task) && !task.hasUpload && !url ? 'waitingFile' : 'queued', percent: null };
    }
    case 'in_progress': {
      if (task.errorName === 'RecoverableTaskError') return { phase: 'retrying', percent: null };
      const { bytesRead, bytesTotal } = task.progress;
      if (bytesTotal !== null && bytesTotal > 0) {
        if (bytesRead >= bytesTotal) return { phase: 'resolving', percent: 100 };
        return { phase: 'reading', percent: Math.min(99, Math.floor((bytesRead / bytesTotal) * 100)) };
      }
      return { phase: task.progress.rowsRead > 0 ? 'reading' : 'queued', percent: null };
    }
    default: {
      const never: never = task.status;
      throw new Error(`unknown status ${String(never)}`);
    }
  }
}

/** 1,536 → "1.5 KB" in the reader's number format. */
export function formatBytes(bytes: number, lang: Language): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString(lang, { maximumFractionDigits: unit === 0 ? 0 : 1 })} ${units[unit] ?? 'B'}`;
}

/** The i18n key suffix of an identifier type ("{product}Id" is the contract spelling, not a key). */
export const idTypeKey = (idType: AudienceIdType) => (idType === '{product}Id' ? 'productId' : idType);

/** "a, b ,,c" → ["a", "b", "c"]. */
export const splitIds = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);
