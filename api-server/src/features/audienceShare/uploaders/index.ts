/** The uploader of each share service this product uploads to (shared `SHARE_PLATFORMS`). */
import type { IntegrationAccess } from '../../integrations/access.ts';
import { failCodeOf } from '../../integrations/access.ts';
import type { NetPolicy } from '../../../net/index.ts';
import { googleAdsUploader } from './googleAds.ts';
import type { PlatformUploader } from './http.ts';
import { metaUploader } from './meta.ts';
import { tradeDeskUploader } from './tradeDesk.ts';

export { PlatformFailure, type PlatformUploader, type UploadSession } from './http.ts';

/** The public API bases, when an integration's config has no `baseUrl` (it normally has: docs/design/integrations.md). */
const PUBLIC_BASE: Record<string, string> = {
  meta_ads: 'https://graph.facebook.com/v19.0',
  google_ads: 'https://googleads.googleapis.com/v17',
  the_trade_desk: 'https://api.thetradedesk.com/v3',
};

export function uploaderFor(access: IntegrationAccess, policy: NetPolicy): PlatformUploader | null {
  const configured = typeof access.config.baseUrl === 'string' && access.config.baseUrl !== '' ? access.config.baseUrl : PUBLIC_BASE[access.service];
  if (!configured) return null;
  const baseUrl = configured.replace(/\/+$/, '');
  const failCode = failCodeOf(access.service);
  switch (access.service) {
    case 'meta_ads': return metaUploader(access, policy, failCode, baseUrl);
    case 'google_ads': return googleAdsUploader(access, policy, failCode, baseUrl);
    case 'the_trade_desk': return tradeDeskUploader(access, policy, failCode, baseUrl);
    default: return null;
  }
}
