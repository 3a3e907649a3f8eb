/**
 * Import tasks (/manage/import-task), the object-storage integrations they read from, and audience
 * exports. Imports and exports run as background jobs: create answers at once (status new or
 * processing) and the lists show their progress.
 *
 * Permissions: the route key to list, ui:importTask.create/edit/delete to change (SPEC.md section
 * 3); exports need ui:audience.view (they hold the audience's members), deleting one needs audience
 * edit (the owner variant on exports the user made). Failures: 10001 with `details` for a bad
 * field or a private file address, 10004 for ids of nothing or of another account, 30 for a name in
 * use, 10000 for an action the task's state does not allow (retrying a running import).
 */
import { z } from 'zod';
import {
  AudienceExport, ExportCreate, ExportListQuery, ImportTask, ImportTaskCreate, ImportTaskUpdate, S3Integration, S3IntegrationInput,
} from '../schemas/imports.ts';
import { ep, none } from './define.ts';

const VIEW = 'route:/manage/import-task' as const;

export const importEndpoints = {
  listImportTasks: ep({ method: 'GET', path: '/apps/:appId/import-tasks', summary: 'Import tasks of an app, newest first, with their progress', auth: VIEW, response: { tasks: z.array(ImportTask) } }),
  getImportTask: ep({ method: 'GET', path: '/apps/:appId/import-tasks/:taskId', summary: 'An import task with its progress', auth: VIEW, response: { task: ImportTask } }),
  createImportTask: ep({
    method: 'POST', path: '/apps/:appId/import-tasks', auth: 'ui:importTask.create', request: ImportTaskCreate, response: { task: ImportTask },
    summary: 'Create an import into a new audience (or refill audienceId); it runs in the background, or waits for its file when awaitUpload is set',
  }),
  updateImportTask: ep({ method: 'PUT', path: '/apps/:appId/import-tasks/:taskId', summary: 'Rename an import or change its source (secrets are kept unless given); not while it runs', auth: 'ui:importTask.edit', request: ImportTaskUpdate, response: { task: ImportTask } }),
  uploadImportFile: ep({
    method: 'POST', path: '/apps/:appId/import-tasks/:taskId/upload', auth: 'ui:importTask.create', response: { task: ImportTask },
    summary: 'The CSV file of a csv import, as the raw request body (Content-Type text/csv, up to 512 MiB); the import then runs',
  }),
  retryImportTask: ep({ method: 'POST', path: '/apps/:appId/import-tasks/:taskId/retry', summary: 'Run a failed or finished import again', auth: 'ui:importTask.edit', response: { task: ImportTask } }),
  deleteImportTask: ep({ method: 'DELETE', path: '/apps/:appId/import-tasks/:taskId', summary: 'Delete an import task (a running one stops; its audience stays as it was)', auth: 'ui:importTask.delete', response: none }),

  listStorageIntegrations: ep({ method: 'GET', path: '/apps/:appId/storage-integrations', summary: 'Object storage (S3-compatible) integrations of an app', auth: VIEW, response: { integrations: z.array(S3Integration) } }),
  createStorageIntegration: ep({ method: 'POST', path: '/apps/:appId/storage-integrations', summary: 'Add object storage credentials (the secret key is stored encrypted and never answered)', auth: 'ui:importTask.create', request: S3IntegrationInput, response: { integration: S3Integration } }),
  deleteStorageIntegration: ep({ method: 'DELETE', path: '/apps/:appId/storage-integrations/:integrationId', summary: 'Delete object storage credentials', auth: 'ui:importTask.delete', response: none }),

  listAudienceExports: ep({ method: 'GET', path: '/apps/:appId/audience-exports', summary: 'Exports of the app\'s audiences, newest first (query: audienceId)', auth: 'ui:audience.view', query: ExportListQuery, response: { exports: z.array(AudienceExport) } }),
  createAudienceExport: ep({ method: 'POST', path: '/apps/:appId/audiences/:audienceId/exports', summary: 'Export an audience\'s members to CSV or to a CSV inside a zip, in the background', auth: 'ui:audience.view', request: ExportCreate, response: { export: AudienceExport } }),
  downloadAudienceExport: ep({ method: 'GET', path: '/apps/:appId/audience-exports/:exportId/download', summary: 'The export\'s file (text/csv or application/zip), when it is ready or warning', auth: 'ui:audience.view', response: none }),
  deleteAudienceExport: ep({ method: 'DELETE', path: '/apps/:appId/audience-exports/:exportId', summary: 'Delete an export and its file', auth: { or: ['ui:audience.edit', 'ui:audience.edit:owner'] }, response: none }),
} as const;
