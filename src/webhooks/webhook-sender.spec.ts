import type { LookupAddress } from 'node:dns';
import { Webhook } from 'standardwebhooks';
import { resolver } from '../auth/issuer-documents';
import { retryDelay } from './webhook-delivery';
import {
  retryAfterOf,
  sendWebhook,
  signatureOf,
  webhookUrlProblem,
} from './webhook-sender';

// What names resolve to is simulated: no test connects anywhere but loopback.
const real = resolver.lookup;
afterEach(() => {
  resolver.lookup = real;
});

describe('webhookUrlProblem', () => {
  it('refuses loopback and private addresses unless the tenant may use them', () => {
    expect(webhookUrlProblem('https://10.1.2.3/', false)).toBe(
      'must not name a private network address',
    );
    expect(webhookUrlProblem('https://10.1.2.3/', true)).toBeUndefined();
    expect(webhookUrlProblem('https://169.254.169.254/', true)).toBe(
      'must not name a link-local address or a cloud metadata service',
    );
    expect(webhookUrlProblem('http://127.0.0.1:4000/', false)).toBe(
      'must not name a loopback address',
    );
    expect(webhookUrlProblem('http://127.0.0.1:4000/', true)).toBeUndefined();
  });
});

describe('sendWebhook', () => {
  it('refuses, before connecting, a name that resolves to a private address', async () => {
    const asked: string[] = [];
    resolver.lookup = ((
      hostname: string,
      _options: unknown,
      callback: (error: null, found: LookupAddress[]) => void,
    ) => {
      asked.push(hostname);
      callback(null, [{ address: '192.168.7.7', family: 4 }]);
    }) as unknown as typeof resolver.lookup;
    const result = await sendWebhook({
      url: 'https://receiver.example.test/hooks',
      allowPrivate: false,
      messageId: 'evt_1',
      body: '{}',
      secrets: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      timeoutMs: 1000,
    });
    expect(asked).toStrictEqual(['receiver.example.test']);
    expect([result.ok, result.error]).toStrictEqual([
      false,
      'refused: its name resolves to a private network address',
    ]);
  });
});

describe('signatureOf', () => {
  it('signs with each secret, verifiable by the standardwebhooks verifier', () => {
    const [a, b] = [
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
    ];
    const at = new Date();
    const body = '{"type":"identity.updated"}';
    const signature = signatureOf(
      { secret: a, previousSecret: b },
      'evt_7',
      at,
      body,
    );
    expect(signature).toMatch(/^v1,\S+ v1,\S+$/);
    const headers = {
      'webhook-id': 'evt_7',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    for (const secret of [a, b])
      expect(new Webhook(secret).verify(body, headers)).toStrictEqual({
        type: 'identity.updated',
      });
  });
});

describe('retries', () => {
  it('back off exponentially with jitter, at most the maximum, at least Retry-After', () => {
    expect(retryDelay(1, 1000, 60_000, 0, () => 0)).toBe(500);
    expect(retryDelay(1, 1000, 60_000, 0, () => 1)).toBe(1000);
    expect(retryDelay(4, 1000, 60_000, 0, () => 1)).toBe(8000);
    expect(retryDelay(30, 1000, 60_000, 0, () => 1)).toBe(60_000);
    expect(retryDelay(1, 1000, 60_000, 20_000, () => 0)).toBe(20_000);
    expect(retryDelay(1, 1000, 60_000, 3_600_000, () => 0)).toBe(60_000);
  });

  it('read Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterOf('120')).toBe(120_000);
    expect(
      retryAfterOf(
        'Wed, 25 Nov 2026 10:00:30 GMT',
        Date.parse('2026-11-25T10:00:00Z'),
      ),
    ).toBe(30_000);
    expect(retryAfterOf('soon')).toBeUndefined();
    expect(retryAfterOf(null)).toBeUndefined();
  });
});
