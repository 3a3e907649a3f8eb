/** Where an export's file is downloaded from: a plain link (the browser sends the session cookie). */
import { endpoints, fillPath } from '@gd/shared/endpoints';
import { apiBaseUrl } from '../../api/client.ts';

export const exportDownloadUrl = (appId: string, exportId: string) =>
  `${apiBaseUrl()}${fillPath(endpoints.downloadAudienceExport.path, { appId, exportId })}`;
