/** The accent colour (a Mantine colour) and icon of each step type. */
import {
  IconArrowMerge,
  IconArrowsSplit,
  IconBell,
  IconBolt,
  IconClockPause,
  IconDeviceMobileMessage,
  IconDice5,
  IconFlag,
  IconHandClick,
  IconHourglass,
  IconMail,
  IconTag,
  IconTimelineEvent,
  IconUsersGroup,
  IconWebhook,
  type Icon,
} from '@tabler/icons-react';
import type { StepCategory, StepType } from '@gd/shared/journey/model';

export interface StepVisual {
  icon: Icon;
  color: string;
}

export const STEP_VISUALS: Readonly<Record<StepType, StepVisual>> = {
  sourceAudience: { icon: IconUsersGroup, color: 'teal' },
  sourceEvents: { icon: IconBolt, color: 'green' },
  flowInteraction: { icon: IconHandClick, color: 'violet' },
  flowEvent: { icon: IconTimelineEvent, color: 'grape' },
  flowRandom: { icon: IconDice5, color: 'pink' },
  flowSplit: { icon: IconArrowsSplit, color: 'indigo' },
  flowJoin: { icon: IconArrowMerge, color: 'gray' },
  flowWait: { icon: IconHourglass, color: 'yellow' },
  flowWaitInteraction: { icon: IconClockPause, color: 'lime' },
  actionMessagePush: { icon: IconBell, color: 'blue' },
  actionMessageInApp: { icon: IconDeviceMobileMessage, color: 'cyan' },
  actionMessageEmail: { icon: IconMail, color: 'brand' },
  actionPostback: { icon: IconWebhook, color: 'dark' },
  updateTagCount: { icon: IconTag, color: 'orange' },
  end: { icon: IconFlag, color: 'gray' },
};

/** The colour of a category's accent bar. */
export const CATEGORY_COLORS: Readonly<Record<StepCategory, string>> = {
  source: 'teal',
  flow: 'violet',
  action: 'blue',
  update: 'orange',
  end: 'gray',
};

export const CATEGORY_ORDER: readonly StepCategory[] = ['source', 'flow', 'action', 'update', 'end'];

/** A CSS colour of the theme: `mantineColor('blue', 6)` → `var(--mantine-color-blue-6)`. */
export const mantineColor = (color: string, shade: number | 'light' | 'light-color' = 6): string => `var(--mantine-color-${color}-${shade})`;
