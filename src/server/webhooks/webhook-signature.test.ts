import { describe, expect, it } from 'vitest';
import { verifyWithLibrary } from '../test/webhook-receiver.ts';
import { newWebhookSecret, signWebhook, webhookHeaders } from './webhook-signature.ts';

describe('Standard Webhooks signatures', () => {
  it('a new secret is whsec_ and 32 random bytes in base64', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs id.timestamp.body with HMAC-SHA256 under the key after whsec_', () => {
    // A fixed vector: the reference library verifies it too.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    const signature = signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body);
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(signWebhook('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe(signature);
    const headers = { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': signature };
    expect(verifyWithLibrary(secret, headers, body, 1614265330_000)).toBeNull();
  });

  it('signs with every secret given (a rotation): a receiver holding either one verifies it', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const now = 1_800_000_000;
    const headers = webhookHeaders([current, previous], 'evt-1', now, '{"type":"lead.created"}');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWithLibrary(current, headers, '{"type":"lead.created"}', now * 1000)).toBeNull();
    expect(verifyWithLibrary(previous, headers, '{"type":"lead.created"}', now * 1000)).toBeNull();
    expect(verifyWithLibrary(newWebhookSecret(), headers, '{"type":"lead.created"}', now * 1000)).not.toBeNull();
    expect(verifyWithLibrary(current, headers, '{"type":"lead.deleted"}', now * 1000)).not.toBeNull();
  });
});
