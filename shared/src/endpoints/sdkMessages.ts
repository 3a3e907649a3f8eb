/** What the SDK asks about messages (schemas/sdkMessages.ts): in-app messages, native ads, coupon redemptions. */
import { ep } from './define.ts';
import { InAppAnswer, InAppQuery, NativeAdsAnswer, NativeAdsQuery, RedeemAnswer, RedeemRequest } from '../schemas/sdkMessages.ts';

export const sdkMessageEndpoints = {
  sdkInApp: ep({ method: 'GET', path: '/sdk/v1/in-app', summary: 'The in-app messages on offer to the device\'s person now', auth: 'appKey', query: InAppQuery, response: InAppAnswer }),
  sdkNativeAds: ep({ method: 'GET', path: '/sdk/v1/native-ads', summary: 'The native ads on offer to the device\'s person for a placement, filled through its template', auth: 'appKey', query: NativeAdsQuery, response: NativeAdsAnswer }),
  sdkRedeem: ep({ method: 'POST', path: '/sdk/v1/redeem', summary: 'Redeem a coupon (once per client id; refused past max_redeems)', auth: 'appKey', request: RedeemRequest, response: RedeemAnswer }),
} as const;
