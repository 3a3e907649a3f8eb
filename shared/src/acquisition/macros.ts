/**
 * Provider postback URLs (issue 16, piece D): a provider's install or event postback is a URL
 * template carrying SPEC §3 macros as `{name}` placeholders, e.g.
 * `https://postback.network.example/install?click={click_id}&amount={amount}&ts={unix_time}`.
 *
 * - `fillPostbackUrl(template, values)`: every `{name}` (letters, digits and underscore, starting
 *   with a letter) is replaced by its value, URL encoded (`encodeURIComponent`); a macro without a
 *   value, and a name that is no SPEC §3 macro, become empty. Any other text, braces that hold no
 *   name included, is kept as written. Pure: `random` and `unix_time` are values like the others
 *   (the API fixes them once per postback, so every retry sends the same URL).
 * - What each macro means (the API fills them, api-server/src/features/postbacks/values.ts):
 *   exid: the network's own id of the click (link parameter `tid`); camid: the network's campaign
 *   id (link parameter `cid`); app_name: the app's name; app_cats: the app's category names
 *   (/manage/categories) in alphabetical order, comma separated, empty for none; dp: the deep link of the click; udid: the device's advertising id (idfa,
 *   gaid, oaid, else idfv, else the SDK's device key); ip, device (model), country: the person's,
 *   else the click's; customer_id: the person's customer id; user_id: our person id; click_id:
 *   our click id; campaign_id: our campaign id; network_id: our source id; provider_id: our
 *   account provider id; order_id and amount: the event's `order_id` property and its revenue
 *   (events only); random: a number fixed per postback; unix_time: the install's or event's time
 *   in seconds; eat_sub1 to eat_sub25: the event's properties of those names, else link parameters
 *   p1 to p9 for eat_sub1 to eat_sub9.
 */
import { POSTBACK_MACROS, type PostbackMacro } from './model.ts';

export type MacroValue = string | number | null | undefined;
export type MacroValues = Partial<Record<PostbackMacro, MacroValue>>;

/** `{name}`: a placeholder. */
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;
const MACRO_SET: ReadonlySet<string> = new Set(POSTBACK_MACROS);

export const isPostbackMacro = (name: string): name is PostbackMacro => MACRO_SET.has(name);

const valueText = (v: MacroValue): string => (v === null || v === undefined ? '' : typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v);

/** The template with every `{macro}` replaced by its URL-encoded value ('' when unknown or unset). */
export function fillPostbackUrl(template: string, values: MacroValues): string {
  return template.replace(PLACEHOLDER, (_, name: string) => (isPostbackMacro(name) ? encodeURIComponent(valueText(values[name])) : ''));
}

/** The placeholder names a template uses, in order of first use (known or not). */
export function templateMacros(template: string): string[] {
  const names = new Set<string>();
  for (const m of template.matchAll(PLACEHOLDER)) names.add(m[1] as string);
  return [...names];
}

/** Names a template uses that are no SPEC §3 macro (they are sent empty). */
export const unknownMacros = (template: string): string[] => templateMacros(template).filter((n) => !isPostbackMacro(n));
