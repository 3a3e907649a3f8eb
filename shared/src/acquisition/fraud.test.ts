import { describe, expect, it } from 'vitest';
import { FRAUD_THRESHOLDS, clickDevice, flagClicks, isShortClickToInstall, type FraudClick } from './fraud.ts';

const T0 = Date.UTC(2025, 0, 1, 12);
const click = (id: string, secondsAfter: number, extra: Partial<FraudClick> = {}): FraudClick => ({ id, at: T0 + secondsAfter * 1000, ip: '203.0.113.7', bot: false, ...extra });

describe('flagClicks', () => {
  it('flags the clicks of an IP beyond the threshold within the hour, not those before', () => {
    const clicks = Array.from({ length: FRAUD_THRESHOLDS.clicksPerIp + 2 }, (_, i) => click(`c${i}`, i * 60));
    const flags = flagClicks(clicks);
    expect([...flags.keys()]).toEqual([`c${FRAUD_THRESHOLDS.clicksPerIp}`, `c${FRAUD_THRESHOLDS.clicksPerIp + 1}`]);
    expect(flags.get(`c${FRAUD_THRESHOLDS.clicksPerIp}`)).toEqual(['ip_burst']);
  });

  it('counts the window edge to the second: a click exactly an hour back is inside, one second more is outside', () => {
    const n = FRAUD_THRESHOLDS.clicksPerIp;
    const inside = [click('first', 0), ...Array.from({ length: n - 1 }, (_, i) => click(`m${i}`, 100 + i)), click('last', 3600)];
    expect(flagClicks(inside).get('last')).toEqual(['ip_burst']);
    const outside = [click('first', 0), ...Array.from({ length: n - 1 }, (_, i) => click(`m${i}`, 100 + i)), click('last', 3601)];
    expect(flagClicks(outside).has('last')).toBe(false);
  });

  it('flags device bursts across IPs, by the first device id', () => {
    const clicks = Array.from({ length: FRAUD_THRESHOLDS.clicksPerDevice + 1 }, (_, i) => click(`d${i}`, i, { ip: `198.51.100.${i}`, gaid: 'g-1' }));
    expect(flagClicks(clicks).get(`d${FRAUD_THRESHOLDS.clicksPerDevice}`)).toEqual(['device_burst']);
    expect(clickDevice({ idfa: null, idfv: 'v', gaid: 'g' })).toBe('v');
  });

  it('flags bots and does not count them towards bursts', () => {
    const bots = Array.from({ length: 20 }, (_, i) => click(`b${i}`, i, { bot: true }));
    const human = click('h', 30);
    const flags = flagClicks([...bots, human]);
    expect(flags.get('b0')).toEqual(['bot']);
    expect(flags.has('h')).toBe(false);
  });

  it('calls click-to-install times under the threshold too short', () => {
    expect(isShortClickToInstall(FRAUD_THRESHOLDS.minClickToInstallSeconds - 0.001)).toBe(true);
    expect(isShortClickToInstall(FRAUD_THRESHOLDS.minClickToInstallSeconds)).toBe(false);
  });
});
