/** The SDK's deferred deep link call (schemas/attribution.ts). */
import { ep } from './define.ts';
import { DeferredLinkAnswer, DeferredLinkRequest } from '../schemas/attribution.ts';

export const attributionEndpoints = {
  deferredDeepLink: ep({ method: 'POST', path: '/sdk/v1/deferred-link', summary: 'The deep link of the click that brought this install, handed over once (attributes the device\'s pending install first)', auth: 'appKey', request: DeferredLinkRequest, response: DeferredLinkAnswer }),
} as const;
