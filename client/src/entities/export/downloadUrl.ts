/** Where an export's file is downloaded from: a plain link (the browser sends the session cookie). */
import { endpointRoutes, fillPath } from '@gd/shared/endpointRoutes';
import { apiBaseUrl } from '../../api/client.ts';

export const exportDownloadUrl = (appId: string, exportId: string) =>
  `${apiBaseUrl()}${fillPath(endpointRoutes.downloadAudienceExport.path, { appId, exportId })}`;
