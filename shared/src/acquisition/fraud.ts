/**
 * Fraud signals of the apptracker's "export fraud" (ui:apptracker.exportFraud): which clicks and
 * installs look suspicious, and why. The API computes the same rules in SQL over a range
 * (api-server/src/features/acquisition/fraud.ts); this pure version is their meaning, and the
 * integration test compares both on the same rows.
 *
 * Rules:
 * - `bot`: a click the link host flagged (crawler, prefetch, HEAD): recorded, never counted.
 * - `ip_burst`: a counted click that is more than FRAUD_THRESHOLDS.clicksPerIp clicks from the same
 *   IP within the hour ending at it (both ends included): the 11th click of an IP within an hour and
 *   every one after it while the rate stays above the threshold.
 * - `device_burst`: the same per device, the device being the click's first id of idfa, idfv, gaid,
 *   oaid (clicks without any id are not counted per device).
 * - `ctit_short`: an install attributed to a click less than FRAUD_THRESHOLDS.minClickToInstallSeconds
 *   after it (click-to-install time too short for a person to download and open an app).
 */

export const FRAUD_THRESHOLDS = {
  /** More than this many counted clicks from one IP within WINDOW_SECONDS is a burst. */
  clicksPerIp: 10,
  /** More than this many counted clicks from one device within WINDOW_SECONDS is a burst. */
  clicksPerDevice: 10,
  /** The sliding window of the burst rules. */
  windowSeconds: 3600,
  /** An install less than this many seconds after its click is too fast to be human. */
  minClickToInstallSeconds: 10,
} as const;

export type FraudReason = 'bot' | 'ip_burst' | 'device_burst' | 'ctit_short';

export interface FraudClick {
  id: string;
  /** Milliseconds since the epoch. */
  at: number;
  ip: string | null;
  idfa?: string | null;
  idfv?: string | null;
  gaid?: string | null;
  oaid?: string | null;
  bot: boolean;
}

/** The device a click names: its first id of idfa, idfv, gaid, oaid, or null. */
export const clickDevice = (c: Pick<FraudClick, 'idfa' | 'idfv' | 'gaid' | 'oaid'>): string | null => c.idfa || c.idfv || c.gaid || c.oaid || null;

/**
 * For each counted click of a key (IP or device), how many counted clicks of that key fall within
 * the window ending at it (itself included). Clicks of equal time all see each other.
 */
function windowCounts(clicks: readonly FraudClick[], keyOf: (c: FraudClick) => string | null): Map<string, number> {
  const byKey = new Map<string, FraudClick[]>();
  for (const c of clicks) {
    const key = c.bot ? null : keyOf(c);
    if (key === null) continue;
    const list = byKey.get(key) ?? [];
    list.push(c);
    byKey.set(key, list);
  }
  const out = new Map<string, number>();
  const windowMs = FRAUD_THRESHOLDS.windowSeconds * 1000;
  for (const list of byKey.values()) {
    const times = list.sort((a, b) => a.at - b.at).map((c) => c.at);
    let start = 0;
    let end = 0;
    times.forEach((at, i) => {
      while ((times[start] ?? at) < at - windowMs) start++;
      end = Math.max(end, i);
      while (end + 1 < times.length && times[end + 1] === at) end++;
      out.set(list[i]?.id ?? '', end - start + 1);
    });
  }
  return out;
}

/** The reasons each suspicious click is suspicious (clicks without any reason are left out). */
export function flagClicks(clicks: readonly FraudClick[]): Map<string, FraudReason[]> {
  const perIp = windowCounts(clicks, (c) => c.ip);
  const perDevice = windowCounts(clicks, clickDevice);
  const out = new Map<string, FraudReason[]>();
  for (const c of clicks) {
    const reasons: FraudReason[] = [];
    if (c.bot) reasons.push('bot');
    if ((perIp.get(c.id) ?? 0) > FRAUD_THRESHOLDS.clicksPerIp) reasons.push('ip_burst');
    if ((perDevice.get(c.id) ?? 0) > FRAUD_THRESHOLDS.clicksPerDevice) reasons.push('device_burst');
    if (reasons.length) out.set(c.id, reasons);
  }
  return out;
}

/** Whether an install this many seconds after its click is too fast (negative: clock skew, also flagged). */
export const isShortClickToInstall = (seconds: number): boolean => seconds < FRAUD_THRESHOLDS.minClickToInstallSeconds;
