import { describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS, backoffMs, classifyApns, classifyFcm, classifyNetworkError, fcmErrorCode, parseRetryAfter } from './result.ts';

const fcmError = (code: number, status: string, errorCode?: string, extra: object[] = []) => ({
  error: { code, message: 'x', status, details: [...(errorCode ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] : []), ...extra] },
});

describe('classifyApns', () => {
  it.each([
    [200, undefined, { outcome: 'sent' }],
    [410, 'Unregistered', { outcome: 'retire', reason: 'Unregistered' }],
    [410, 'ExpiredToken', { outcome: 'retire', reason: 'ExpiredToken' }],
    [400, 'BadDeviceToken', { outcome: 'retire', reason: 'BadDeviceToken' }],
    [400, 'DeviceTokenNotForTopic', { outcome: 'retire', reason: 'DeviceTokenNotForTopic' }],
    [403, 'ExpiredProviderToken', { outcome: 'refresh_credentials', reason: 'ExpiredProviderToken' }],
    [403, 'InvalidProviderToken', { outcome: 'refresh_credentials', reason: 'InvalidProviderToken' }],
    [429, 'TooManyRequests', { outcome: 'retry', reason: 'TooManyRequests' }],
    [429, 'TooManyProviderTokenUpdates', { outcome: 'retry', reason: 'TooManyProviderTokenUpdates' }],
    [500, 'InternalServerError', { outcome: 'retry', reason: 'InternalServerError' }],
    [503, 'ServiceUnavailable', { outcome: 'retry', reason: 'ServiceUnavailable' }],
    [503, undefined, { outcome: 'retry', reason: 'http_503' }],
    [413, 'PayloadTooLarge', { outcome: 'failed', reason: 'PayloadTooLarge' }],
    [400, 'BadCollapseId', { outcome: 'failed', reason: 'BadCollapseId' }],
    [400, 'TopicDisallowed', { outcome: 'failed', reason: 'TopicDisallowed' }],
    [403, 'BadCertificate', { outcome: 'failed', reason: 'BadCertificate' }],
  ] as const)('%i %s', (status, reason, expected) => {
    expect(classifyApns(status, reason)).toEqual(expected);
  });

  it('keeps the retry-after of transient answers only', () => {
    expect(classifyApns(429, 'TooManyRequests', 5000)).toEqual({ outcome: 'retry', reason: 'TooManyRequests', retryAfterMs: 5000 });
    expect(classifyApns(410, 'Unregistered', 5000)).toEqual({ outcome: 'retire', reason: 'Unregistered' });
  });
});

describe('classifyFcm', () => {
  it('retires UNREGISTERED, a token INVALID_ARGUMENT and SENDER_ID_MISMATCH', () => {
    expect(classifyFcm(404, fcmError(404, 'NOT_FOUND', 'UNREGISTERED'))).toEqual({ outcome: 'retire', reason: 'UNREGISTERED' });
    const tokenViolation = { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.token', description: 'bad' }] };
    expect(classifyFcm(400, fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', [tokenViolation]))).toEqual({ outcome: 'retire', reason: 'INVALID_ARGUMENT' });
    expect(classifyFcm(400, { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'The registration token is not a valid FCM registration token' } })).toEqual({ outcome: 'retire', reason: 'INVALID_ARGUMENT' });
    expect(classifyFcm(403, fcmError(403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH'))).toEqual({ outcome: 'retire', reason: 'SENDER_ID_MISMATCH' });
  });

  it('fails an INVALID_ARGUMENT about the message, not the token', () => {
    const ttl = { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.android.ttl', description: 'bad' }] };
    expect(classifyFcm(400, fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', [ttl]))).toEqual({ outcome: 'failed', reason: 'INVALID_ARGUMENT' });
  });

  it('retries quota, unavailability and internal errors with the retry-after; refreshes on 401', () => {
    expect(classifyFcm(429, fcmError(429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED'), 10_000)).toEqual({ outcome: 'retry', reason: 'QUOTA_EXCEEDED', retryAfterMs: 10_000 });
    expect(classifyFcm(429, { error: { status: 'RESOURCE_EXHAUSTED' } })).toEqual({ outcome: 'retry', reason: 'RESOURCE_EXHAUSTED' });
    expect(classifyFcm(503, fcmError(503, 'UNAVAILABLE', 'UNAVAILABLE'))).toEqual({ outcome: 'retry', reason: 'UNAVAILABLE' });
    expect(classifyFcm(500, fcmError(500, 'INTERNAL', 'INTERNAL'))).toEqual({ outcome: 'retry', reason: 'INTERNAL' });
    expect(classifyFcm(401, { error: { code: 401, status: 'UNAUTHENTICATED' } })).toEqual({ outcome: 'refresh_credentials', reason: 'UNAUTHENTICATED' });
    expect(classifyFcm(403, fcmError(403, 'PERMISSION_DENIED', 'THIRD_PARTY_AUTH_ERROR'))).toEqual({ outcome: 'failed', reason: 'THIRD_PARTY_AUTH_ERROR' });
    expect(classifyFcm(502, undefined)).toEqual({ outcome: 'retry', reason: 'http_502' });
  });

  it('reads the FcmError code before the rpc status', () => {
    expect(fcmErrorCode(fcmError(404, 'NOT_FOUND', 'UNREGISTERED'))).toBe('UNREGISTERED');
    expect(fcmErrorCode({ error: { status: 'UNAVAILABLE' } })).toBe('UNAVAILABLE');
    expect(fcmErrorCode(undefined)).toBeUndefined();
  });
});

describe('classifyNetworkError', () => {
  it('retries connection failures and timeouts, fails a refused address', () => {
    expect(classifyNetworkError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toEqual({ outcome: 'retry', reason: 'network_ECONNREFUSED' });
    expect(classifyNetworkError(Object.assign(new Error('x'), { code: 'ERR_HTTP2_GOAWAY_SESSION' }))).toEqual({ outcome: 'retry', reason: 'network_ERR_HTTP2_GOAWAY_SESSION' });
    expect(classifyNetworkError(Object.assign(new Error('x'), { code: 'ETIMEDOUT', reason: 'timeout' }))).toEqual({ outcome: 'retry', reason: 'network_ETIMEDOUT' });
    expect(classifyNetworkError(new Error('no code'))).toEqual({ outcome: 'retry', reason: 'network_error' });
    expect(classifyNetworkError(Object.assign(new Error('x'), { reason: 'refused_address' }))).toEqual({ outcome: 'failed', reason: 'refused_address' });
  });
});

describe('backoffMs', () => {
  it('draws in [0, base·2^(n-1)] (full jitter)', () => {
    expect(backoffMs(1, undefined, () => 0)).toBe(0);
    expect(backoffMs(1, undefined, () => 0.999_999)).toBe(1000);
    expect(backoffMs(3, undefined, () => 0.999_999)).toBe(4000);
    expect(backoffMs(3, undefined, () => 0.5)).toBe(2000);
  });

  it('is capped, however many attempts', () => {
    expect(backoffMs(20, undefined, () => 0.999_999)).toBe(BACKOFF_CAP_MS);
    expect(backoffMs(10_000, undefined, () => 0.999_999)).toBe(BACKOFF_CAP_MS);
    expect(backoffMs(Number.POSITIVE_INFINITY, undefined, () => 0.999_999)).toBe(1000);
  });

  it('waits at least the provider\'s retry-after, itself capped', () => {
    expect(backoffMs(1, 30_000, () => 0.1)).toBe(30_000);
    expect(backoffMs(10, 1_000, () => 0.999_999)).toBe(BACKOFF_CAP_MS);
    expect(backoffMs(1, 10 * 24 * 3600_000, () => 0)).toBe(BACKOFF_CAP_MS);
    expect(backoffMs(1, -5, () => 0)).toBe(0);
  });

  it('stays within its bounds for any draw', () => {
    for (let attempt = 1; attempt < 40; attempt++) {
      const ms = backoffMs(attempt);
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(Math.min(BACKOFF_CAP_MS, 1000 * 2 ** (attempt - 1)));
      expect(Number.isInteger(ms)).toBe(true);
    }
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
