/** Field schemas more than one contract uses. */
import { z } from 'zod';

/** Longest name of anything a person names (account, user, app, journey, segment, audience, import task). */
export const NAME_MAX = 120;
/** A name as people type it: trimmed, required, at most NAME_MAX characters. */
export const Name = z.string().trim().min(1, 'Required').max(NAME_MAX);
/** The body of every "name it" call (create, rename, clone). */
export const NamedInput = z.object({ name: Name });
