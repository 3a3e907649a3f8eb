/**
 * The what-if of a message draft (schemas/messageWhatIf.ts): asked with the draft's target, type
 * and schedule, so it needs what seeing a message needs (endpoints/messages.ts).
 */
import { MessageWhatIfAnswer, MessageWhatIfRequest } from '../schemas/messageWhatIf.ts';
import { ep } from './define.ts';

const VIEW = { or: ['ui:message.view', 'ui:message.view:owner', 'ui:message.read'] } as const;

export const messageWhatIfEndpoints = {
  messageWhatIf: ep({
    method: 'POST', path: '/apps/:appId/messages/what-if', auth: VIEW, request: MessageWhatIfRequest, response: MessageWhatIfAnswer,
    summary: 'Who a draft would reach: the people of its target (an audience, a segment\'s live definition or the test devices), ' +
      'those reachable by push, e-mail and in-app, and when they receive it per time zone',
  }),
} as const;
