/** Shapes of the people answers as the screens use them. */
import type { ResponseOf } from '@gd/shared/endpoints';

export type PersonDetailAnswer = ResponseOf<'getPerson'>;
