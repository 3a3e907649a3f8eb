/**
 * The live what-if while a draft is edited: WHAT_IF_DEBOUNCE_MS after the last change of its target,
 * type or schedule, POST /messages/what-if; a newer change aborts the request on its way, so only
 * the latest answer shows (the runner the segment estimate uses too, state/latestRunner.ts).
 */
import { useEffect, useRef, useState } from 'react';
import type { ResponseOf } from '@gd/shared/endpoints';
import type { MessageDraft } from '@gd/shared/message/draft';
import { api } from '../../../api/client.ts';
import { createLatestRunner, type RunnerState } from '../../../state/latestRunner.ts';
import { whatIfKey, whatIfRequest, type WhatIfRequest } from './whatIfRequest.ts';

export const WHAT_IF_DEBOUNCE_MS = 400;

export type WhatIfAnswer = ResponseOf<'messageWhatIf'>;

export interface WhatIf extends RunnerState<WhatIfAnswer> {
  /** The draft has a target to ask about. */
  asked: boolean;
  /** The shown answer is for the draft as it is now. */
  current: boolean;
  retry: () => void;
}

const INITIAL: RunnerState<WhatIfAnswer> = { result: null, resultKey: null, error: null, pending: false, key: null };

export function useWhatIf(appId: string, draft: MessageDraft): WhatIf {
  const [state, setState] = useState<RunnerState<WhatIfAnswer>>(INITIAL);
  const runner = useRef<ReturnType<typeof createLatestRunner<WhatIfRequest, WhatIfAnswer>> | null>(null);

  useEffect(() => {
    const r = createLatestRunner<WhatIfRequest, WhatIfAnswer>({
      delayMs: WHAT_IF_DEBOUNCE_MS,
      run: (body, signal) => api.call('messageWhatIf', { params: { appId }, body, signal }),
      onChange: setState,
    });
    runner.current = r;
    return () => {
      r.dispose();
      runner.current = null;
      setState(INITIAL);
    };
  }, [appId]);

  const request = whatIfRequest(draft);
  // `draft` changes identity on every edit; `key` is the content the answer depends on.
  const key = request ? whatIfKey(request) : null;
  useEffect(() => {
    if (key !== null) runner.current?.schedule(key, JSON.parse(key) as WhatIfRequest);
  }, [key, appId]);

  return { ...state, asked: key !== null, current: key !== null && state.resultKey === key, retry: () => runner.current?.retry() };
}
