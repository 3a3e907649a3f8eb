import { describe, expect, it } from 'vitest';
import { pushProviderOf, smtpOutcome } from './outcome.ts';

describe('SMTP outcomes', () => {
  it('retires the address only on a 5xx to RCPT TO', () => {
    expect(smtpOutcome({ code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550, message: '550 5.1.1 No such user' })).toMatchObject({ status: 'retired', reason: '550: 550 5.1.1 No such user' });
  });

  it('fails the send, keeping the recipient, when the server refuses the sender or the content', () => {
    // nodemailer tags a 5xx to MAIL FROM and to DATA with EENVELOPE too: neither is about the mailbox.
    expect(smtpOutcome({ code: 'EENVELOPE', command: 'MAIL FROM', responseCode: 550, message: '550 Sender not verified' }).status).toBe('failed');
    expect(smtpOutcome({ code: 'EENVELOPE', command: 'DATA', responseCode: 554, message: '554 Message rejected as spam' }).status).toBe('failed');
    expect(smtpOutcome({ code: 'EMESSAGE', command: 'DATA', responseCode: 552, message: '552 Message too large' }).status).toBe('failed');
    expect(smtpOutcome({ code: 'EENVELOPE', command: 'API', message: 'Invalid recipient "x@"' }).status).toBe('failed');
  });

  it('retries 4xx answers and connection trouble', () => {
    expect(smtpOutcome({ code: 'EENVELOPE', command: 'RCPT TO', responseCode: 450, message: '450 Mailbox busy' }).status).toBe('retry');
    expect(smtpOutcome({ code: 'ECONNECTION', message: 'connect ECONNREFUSED' }).status).toBe('retry');
    expect(smtpOutcome(new Error('socket hang up')).status).toBe('retry');
  });
});

describe('push providers', () => {
  it('sends web subscriptions through web push, iOS through APNs, the rest through FCM', () => {
    expect(['web', 'iOS', 'ios', 'Android', null].map(pushProviderOf)).toEqual(['web', 'apns', 'apns', 'fcm', 'fcm']);
  });
});
