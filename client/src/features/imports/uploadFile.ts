/**
 * Uploading an import's CSV file: the raw file as the request body (the JSON client cannot send
 * one), through XMLHttpRequest because fetch reports no upload progress. Same session cookies and
 * CSRF header as the API client; the answer is read with the API client's `readAnswer`, so a KO
 * throws the same ApiError.
 */
import type { ResponseOf } from '@gd/shared/endpoints';
import { endpointRoutes, fillPath } from '@gd/shared/endpointRoutes';
import { AUTH_COOKIES, CSRF_HEADER } from '@gd/shared/schemas/auth';
import { api, apiBaseUrl, readAnswer, readCookie } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';

export async function uploadImportFile(appId: string, taskId: string, file: File, onProgress: (percent: number) => void): Promise<ResponseOf<'uploadImportFile'>> {
  const csrf = readCookie(document.cookie, AUTH_COOKIES.csrf) ?? (await api.call('csrf')).csrfToken;
  const url = `${apiBaseUrl()}${fillPath(endpointRoutes.uploadImportFile.path, { appId, taskId })}`;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', 'text/csv');
    xhr.setRequestHeader(CSRF_HEADER, csrf);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError('network', 'Network failure'));
    xhr.onload = () => {
      let json: unknown;
      try {
        json = JSON.parse(xhr.responseText) as unknown;
      } catch {
        json = undefined;
      }
      try {
        resolve(readAnswer<ResponseOf<'uploadImportFile'>>(xhr.status, json));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    xhr.send(file);
  });
}

