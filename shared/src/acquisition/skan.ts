/**
 * SKAdNetwork (issue 16, /acquisition/skadnetwork): the rules, pure, shared by the API and the web
 * app. Apple's documentation ("Verifying an install-validation postback" and "Combining parameters
 * for SKAdNetwork 3 postbacks" / "... previous SKAdNetwork postback versions") is the source of
 * the field orders below; the signature itself is checked by the API (features/skan/verify.ts).
 *
 * - A postback is signed by Apple (ECDSA P-256, SHA-256) over some of its fields, in a fixed order
 *   per version, joined by U+2063 (INVISIBLE SEPARATOR). `conversion-value` and
 *   `coarse-conversion-value` are never signed. Booleans are written "true"/"false", numbers as
 *   they were sent. `source-app-id` (or, in 4.0 for web ads, `source-domain`) is included only
 *   when the postback has it. Supported: 2.2, 3.0 and 4.x (the versions Apple documents with the
 *   P-256 key); 1.0, 2.0 and 2.1 postbacks are stored as rejected ('unsupported_version').
 * - SKAN 4 sends up to three postbacks per install, one per conversion window
 *   (`postback-sequence-index` 0, 1, 2: days 0-2, 3-7 and 8-35 after the first launch). The fine
 *   value (0..63) comes only in the first window and only when the install clears Apple's privacy
 *   threshold; otherwise a coarse value (low, medium, high) or nothing.
 * - The conversion-value schema (per app) maps each fine value and each coarse value of each
 *   window to the events it stands for and a revenue range; `decodeSkanValue` reads a postback
 *   with it and `skanFigures` adds decoded postbacks up per campaign and window.
 * - Campaigns: an ad network's source identifier (4.0: 2 to 4 digits, the lower privacy tiers
 *   keep only the last 2 or 3) or campaign id (before 4.0) is mapped to one of the app's
 *   campaigns. `resolveSkanCampaign`: the mapping with exactly that identifier, else the only
 *   mapping of the network whose last digits it is (two mappings ending alike: unmapped).
 */
import { z } from 'zod';

/** Apple's field separator in the signed string (U+2063 INVISIBLE SEPARATOR). */
export const SKAN_SEPARATOR = '\u2063';
export const SKAN_FINE_MAX = 63;

export const SkanCoarse = z.enum(['low', 'medium', 'high']);
export type SkanCoarse = z.infer<typeof SkanCoarse>;

/** The three conversion windows of SKAN 4, by `postback-sequence-index`. Earlier versions: window 0 only. */
export const SKAN_WINDOWS = [0, 1, 2] as const;
export const SkanWindow = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type SkanWindow = z.infer<typeof SkanWindow>;
/** Days after the first launch each window covers (Apple: 0-2, 3-7, 8-35). */
export const SKAN_WINDOW_DAYS: Readonly<Record<SkanWindow, readonly [number, number]>> = { 0: [0, 2], 1: [3, 7], 2: [8, 35] };

/** `fidelity-type`: 0 view-through ad, 1 StoreKit-rendered ad or web ad (a click). */
export const SkanFidelity = z.union([z.literal(0), z.literal(1)]);
export type SkanFidelity = z.infer<typeof SkanFidelity>;

/** Where Apple's own public key applies: every version from 2.1 on (its NIST P-256 key). */
export const APPLE_SKAN_P256_KEY = 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWdp8GPcGqmhgzEFj9Z2nSpQVddayaPe4FMzqM9wib1+aHaaIzoHoLN9zW4K8y4SPykE3YVK3sVqW6Af0lfx3gg==';

const numberish = z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,19}$/)]);
const booleanish = z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')]);

/** A postback as Apple sends it (JSON, hyphenated names). Unknown fields are ignored. */
export const SkanPostbackBody = z.object({
  version: z.string().trim().max(8).optional(),
  'ad-network-id': z.string().trim().min(1).max(128),
  'source-identifier': z.string().regex(/^\d{1,4}$/, 'Expected up to 4 digits').optional(),
  'campaign-id': numberish.optional(),
  'app-id': numberish,
  'transaction-id': z.string().trim().min(1).max(64),
  redownload: booleanish.optional(),
  'source-app-id': numberish.optional(),
  'source-domain': z.string().trim().min(1).max(253).optional(),
  'fidelity-type': z.union([z.number().int().min(0).max(1), z.enum(['0', '1'])]).optional(),
  'did-win': booleanish.optional(),
  'conversion-value': z.union([z.number().int().min(0).max(SKAN_FINE_MAX), z.string().regex(/^\d{1,2}$/)]).optional(),
  'coarse-conversion-value': SkanCoarse.optional(),
  'postback-sequence-index': z.union([z.number().int().min(0).max(2), z.enum(['0', '1', '2'])]).optional(),
  'attribution-signature': z.string().trim().min(1).max(512).optional(),
});
export type SkanPostbackBody = z.infer<typeof SkanPostbackBody>;

export type SkanVersionFamily = '2.2' | '3.0' | '4';
/** The field order family of a version string, or null when unsupported. */
export function skanVersionFamily(version: string | undefined): SkanVersionFamily | null {
  if (version === '2.2' || version === '3.0') return version;
  if (version !== undefined && /^4\.\d{1,2}$/.test(version)) return '4';
  return null;
}

const text = (v: string | number | boolean): string => (typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v));

export type SignedString = { ok: true; text: string } | { ok: false; reason: 'unsupported_version' | 'missing_field'; field?: string };

/** The string Apple signed for this postback (fields of its version, in order, joined by U+2063). */
export function skanSignedString(p: SkanPostbackBody): SignedString {
  const family = skanVersionFamily(p.version);
  if (!family) return { ok: false, reason: 'unsupported_version' };
  const parts: (string | number | boolean)[] = [];
  const need = (name: keyof SkanPostbackBody): boolean => {
    const value = p[name];
    if (value === undefined) return false;
    parts.push(value);
    return true;
  };
  const required: (keyof SkanPostbackBody)[] = family === '4'
    ? ['version', 'ad-network-id', 'source-identifier', 'app-id', 'transaction-id', 'redownload']
    : ['version', 'ad-network-id', 'campaign-id', 'app-id', 'transaction-id', 'redownload'];
  for (const name of required) if (!need(name)) return { ok: false, reason: 'missing_field', field: name };
  if (p['source-app-id'] !== undefined) parts.push(p['source-app-id']);
  else if (family === '4' && p['source-domain'] !== undefined) parts.push(p['source-domain']);
  if (!need('fidelity-type')) return { ok: false, reason: 'missing_field', field: 'fidelity-type' };
  if (family !== '2.2' && !need('did-win')) return { ok: false, reason: 'missing_field', field: 'did-win' };
  if (family === '4' && !need('postback-sequence-index')) return { ok: false, reason: 'missing_field', field: 'postback-sequence-index' };
  return { ok: true, text: parts.map(text).join(SKAN_SEPARATOR) };
}

/** What is kept of a postback once read: the figures' inputs, typed. */
export interface SkanPostbackFacts {
  version: string;
  adNetworkId: string;
  /** 4.0: source-identifier; before: campaign-id, as digits. */
  sourceIdentifier: string;
  appStoreId: string;
  transactionId: string;
  redownload: boolean;
  sourceAppId: string | null;
  sourceDomain: string | null;
  fidelity: SkanFidelity | null;
  /** null before 3.0 (every postback then is a win). */
  didWin: boolean | null;
  window: SkanWindow;
  fineValue: number | null;
  coarseValue: SkanCoarse | null;
}

export function skanFacts(p: SkanPostbackBody): SkanPostbackFacts {
  const fine = p['conversion-value'] === undefined ? null : Number(p['conversion-value']);
  const seq = p['postback-sequence-index'] === undefined ? 0 : Number(p['postback-sequence-index']);
  const fidelity = p['fidelity-type'] === undefined ? null : Number(p['fidelity-type']);
  return {
    version: p.version ?? '1.0',
    adNetworkId: p['ad-network-id'],
    sourceIdentifier: p['source-identifier'] ?? (p['campaign-id'] === undefined ? '' : String(p['campaign-id'])),
    appStoreId: String(p['app-id']),
    transactionId: p['transaction-id'],
    redownload: p.redownload ?? false,
    sourceAppId: p['source-app-id'] === undefined ? null : String(p['source-app-id']),
    sourceDomain: p['source-domain'] ?? null,
    fidelity: fidelity === 0 || fidelity === 1 ? fidelity : null,
    didWin: p['did-win'] ?? null,
    window: seq === 1 || seq === 2 ? seq : 0,
    fineValue: fine !== null && fine >= 0 && fine <= SKAN_FINE_MAX ? fine : null,
    coarseValue: p['coarse-conversion-value'] ?? null,
  };
}

// ---- The conversion-value schema ----

const EventName = z.string().trim().min(1).max(64);
const Money = z.number().min(0).max(1_000_000_000);

/** What one value stands for: events and a revenue range (either bound may be open). */
export const SkanValueMeaning = z.object({
  events: z.array(EventName).max(20).default([]),
  revenueMin: Money.nullable().default(null),
  revenueMax: Money.nullable().default(null),
});
export type SkanValueMeaning = z.infer<typeof SkanValueMeaning>;

const checkRevenue = (m: { revenueMin: number | null; revenueMax: number | null }, ctx: z.RefinementCtx) => {
  if (m.revenueMin !== null && m.revenueMax !== null && m.revenueMin > m.revenueMax) {
    ctx.addIssue({ code: 'custom', path: ['revenueMax'], message: 'The revenue range ends before it starts' });
  }
};

export const SkanFineRule = SkanValueMeaning.extend({ value: z.number().int().min(0).max(SKAN_FINE_MAX) }).superRefine(checkRevenue);
export type SkanFineRule = z.infer<typeof SkanFineRule>;
export const SkanCoarseRule = SkanValueMeaning.extend({ window: SkanWindow, value: SkanCoarse }).superRefine(checkRevenue);
export type SkanCoarseRule = z.infer<typeof SkanCoarseRule>;

/** An app's conversion-value schema: each fine value (window 0) and each coarse value per window. */
export const SkanConversionSchema = z.object({
  currency: z.string().regex(/^[A-Z]{3}$/, 'Expected a currency code such as USD').default('USD'),
  fine: z.array(SkanFineRule).max(SKAN_FINE_MAX + 1).default([]),
  coarse: z.array(SkanCoarseRule).max(9).default([]),
}).superRefine((s, ctx) => {
  const fine = new Set<number>();
  s.fine.forEach((r, i) => {
    if (fine.has(r.value)) ctx.addIssue({ code: 'custom', path: ['fine', i, 'value'], message: 'This fine value is already mapped' });
    fine.add(r.value);
  });
  const coarse = new Set<string>();
  s.coarse.forEach((r, i) => {
    const key = `${r.window}:${r.value}`;
    if (coarse.has(key)) ctx.addIssue({ code: 'custom', path: ['coarse', i, 'value'], message: 'This coarse value is already mapped for that window' });
    coarse.add(key);
  });
});
export type SkanConversionSchema = z.infer<typeof SkanConversionSchema>;
export const EMPTY_SKAN_SCHEMA: SkanConversionSchema = { currency: 'USD', fine: [], coarse: [] };

export interface SkanDecoded {
  /** Which value the postback carried: fine, coarse, or none (below Apple's privacy threshold). */
  kind: 'fine' | 'coarse' | 'none';
  /** Whether the schema says what that value means. */
  mapped: boolean;
  events: string[];
  revenueMin: number | null;
  revenueMax: number | null;
}

/** What a postback's value means under the schema. A fine value wins over a coarse one. */
export function decodeSkanValue(schema: SkanConversionSchema, v: { window: SkanWindow; fineValue: number | null; coarseValue: SkanCoarse | null }): SkanDecoded {
  const none = { events: [], revenueMin: null, revenueMax: null };
  if (v.fineValue !== null) {
    const rule = schema.fine.find((r) => r.value === v.fineValue);
    return rule ? { kind: 'fine', mapped: true, events: rule.events, revenueMin: rule.revenueMin, revenueMax: rule.revenueMax } : { kind: 'fine', mapped: false, ...none };
  }
  if (v.coarseValue !== null) {
    const rule = schema.coarse.find((r) => r.window === v.window && r.value === v.coarseValue);
    return rule ? { kind: 'coarse', mapped: true, events: rule.events, revenueMin: rule.revenueMin, revenueMax: rule.revenueMax } : { kind: 'coarse', mapped: false, ...none };
  }
  return { kind: 'none', mapped: false, ...none };
}

// ---- Campaigns ----

export interface SkanMappingRef { adNetworkId: string; sourceIdentifier: string; campaignId: string }

/** The campaign a postback's network and identifier map to (see the file's comment), or null. */
export function resolveSkanCampaign(mappings: readonly SkanMappingRef[], adNetworkId: string, sourceIdentifier: string): string | null {
  const network = adNetworkId.toLowerCase();
  const ofNetwork = mappings.filter((m) => m.adNetworkId.toLowerCase() === network);
  const exact = ofNetwork.find((m) => m.sourceIdentifier === sourceIdentifier);
  if (exact) return exact.campaignId;
  if (sourceIdentifier.length < 2) return null;
  const suffix = ofNetwork.filter((m) => m.sourceIdentifier.length > sourceIdentifier.length && m.sourceIdentifier.endsWith(sourceIdentifier));
  const [only] = suffix;
  return suffix.length === 1 && only ? only.campaignId : null;
}

// ---- Figures ----

/** Counted postbacks (verified, winning) grouped by what decoding needs. */
export interface SkanFigureRow {
  adNetworkId: string;
  sourceIdentifier: string;
  window: SkanWindow;
  fineValue: number | null;
  coarseValue: SkanCoarse | null;
  redownload: boolean;
  count: number;
}

export interface SkanWindowFigures {
  window: SkanWindow;
  postbacks: number;
  /** Window 0 postbacks that are first downloads (installs) and redownloads. */
  installs: number;
  redownloads: number;
  fine: number;
  coarse: number;
  /** Postbacks without a value (below the privacy threshold, or no value set). */
  noValue: number;
  /** Postbacks whose value the schema does not map. */
  unmapped: number;
  /** Conversions by event: postbacks whose value stands for that event. */
  events: Record<string, number>;
  revenueMin: number;
  /** null when a counted value has an open upper bound. */
  revenueMax: number | null;
}

export interface SkanCampaignFigures {
  /** The campaign id, or null for postbacks no mapping names (grouped by network and identifier). */
  campaignId: string | null;
  adNetworkId: string | null;
  sourceIdentifier: string | null;
  windows: SkanWindowFigures[];
}

const emptyWindow = (window: SkanWindow): SkanWindowFigures => ({
  window, postbacks: 0, installs: 0, redownloads: 0, fine: 0, coarse: 0, noValue: 0, unmapped: 0, events: {}, revenueMin: 0, revenueMax: 0,
});

/**
 * Postbacks added up per campaign (mapped) or per network and identifier (unmapped), per window.
 * Revenue: the sum of each decoded value's range; a value mapped with an open upper bound makes
 * the window's maximum open (null); a value mapped to events only adds no revenue. Campaigns first
 * (by id), then the unmapped identifiers.
 */
export function skanFigures(rows: readonly SkanFigureRow[], schema: SkanConversionSchema, mappings: readonly SkanMappingRef[]): SkanCampaignFigures[] {
  const byKey = new Map<string, SkanCampaignFigures>();
  for (const row of rows) {
    const campaignId = resolveSkanCampaign(mappings, row.adNetworkId, row.sourceIdentifier);
    const key = campaignId ? `c:${campaignId}` : `u:${row.adNetworkId}\u0000${row.sourceIdentifier}`;
    let figures = byKey.get(key);
    if (!figures) {
      figures = {
        campaignId, adNetworkId: campaignId ? null : row.adNetworkId, sourceIdentifier: campaignId ? null : row.sourceIdentifier,
        windows: SKAN_WINDOWS.map(emptyWindow),
      };
      byKey.set(key, figures);
    }
    const w = figures.windows[row.window];
    if (!w) continue;
    const n = row.count;
    w.postbacks += n;
    if (row.window === 0) {
      if (row.redownload) w.redownloads += n;
      else w.installs += n;
    }
    const decoded = decodeSkanValue(schema, row);
    if (decoded.kind === 'fine') w.fine += n;
    else if (decoded.kind === 'coarse') w.coarse += n;
    else w.noValue += n;
    if (decoded.kind !== 'none' && !decoded.mapped) w.unmapped += n;
    for (const event of new Set(decoded.events)) w.events[event] = (w.events[event] ?? 0) + n;
    if (decoded.mapped && (decoded.revenueMin !== null || decoded.revenueMax !== null)) {
      w.revenueMin += (decoded.revenueMin ?? 0) * n;
      if (decoded.revenueMax === null) w.revenueMax = null;
      else if (w.revenueMax !== null) w.revenueMax += decoded.revenueMax * n;
    }
  }
  const cents = (x: number) => Math.round(x * 100) / 100;
  for (const figures of byKey.values()) {
    for (const w of figures.windows) {
      w.revenueMin = cents(w.revenueMin);
      if (w.revenueMax !== null) w.revenueMax = cents(w.revenueMax);
    }
  }
  return [...byKey.values()].sort((a, b) => {
    if ((a.campaignId === null) !== (b.campaignId === null)) return a.campaignId === null ? 1 : -1;
    const ka = a.campaignId ?? `${a.adNetworkId} ${a.sourceIdentifier}`;
    const kb = b.campaignId ?? `${b.adNetworkId} ${b.sourceIdentifier}`;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}
