import { describe, expect, it } from 'vitest';
import { flattenedPast, htmlAsText, readInbound, senderPassed, storableDate } from './inbound-mail.ts';

/** What a message read from the reply mailbox becomes, and whether its sender can be believed. */
describe('senderPassed', () => {
  const gmail =
    'mx.google.com; dkim=pass header.i=@example.com header.s=x header.b=abc; spf=pass (google.com: domain of a@example.com designates 1.2.3.4 as permitted sender) smtp.mailfrom=a@example.com; dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.com';

  it('believes the mail host’s DMARC pass for exactly the From domain, or SPF and DKIM for it', () => {
    expect(senderPassed([gmail], 'a@example.com', 'mx.google.com')).toBe(true);
    expect(senderPassed([gmail], 'a@example.com', 'MX.Google.com')).toBe(true);
    expect(senderPassed(['mx; spf=pass smtp.mailfrom=bounce.example.com; dkim=pass header.d=example.com'], 'a@example.com', 'mx')).toBe(
      true,
    );
    expect(senderPassed(['mx; spf=pass smtp.mailfrom=example.com'], 'a@example.com', 'mx')).toBe(false);
  });

  it('believes no header at all without IMAP_AUTHSERV_ID: the topmost may be the one the sender wrote', () => {
    expect(senderPassed([gmail], 'a@example.com', undefined)).toBe(false);
    expect(senderPassed(['mx; dmarc=pass header.from=example.com'], 'a@example.com', undefined)).toBe(false);
  });

  it('believes no header another server wrote, and nothing hidden in comments or quoted strings', () => {
    // Only the named mail host's header counts, wherever it stands.
    expect(
      senderPassed(['mx; dmarc=fail header.from=example.com', 'evil; dmarc=pass header.from=example.com'], 'a@example.com', 'mx'),
    ).toBe(false);
    expect(senderPassed([gmail], 'a@example.com', 'mx.keystone.test')).toBe(false);
    expect(
      senderPassed(
        ['evil; dmarc=pass header.from=example.com', 'mx.keystone.test; dmarc=fail header.from=example.com'],
        'a@example.com',
        'mx.keystone.test',
      ),
    ).toBe(false);
    expect(senderPassed(['mx; spf=pass smtp.mailfrom="x;dmarc=pass"@evil.com'], 'ceo@victim.com', 'mx')).toBe(false);
    expect(senderPassed(['mx; spf=pass (a; dmarc=pass header.from=victim.com) smtp.mailfrom=evil.com'], 'ceo@victim.com', 'mx')).toBe(
      false,
    );
    // A pass for another domain, or for none named, is no pass for this one.
    expect(senderPassed(['mx; dmarc=pass'], 'ceo@victim.com', 'mx')).toBe(false);
    expect(senderPassed(['mx; dmarc=pass header.from=com'], 'ceo@victim.com', 'mx')).toBe(false);
    expect(senderPassed(['mx; dmarc=pass header.from=evilvictim.com'], 'ceo@victim.com', 'mx')).toBe(false);
    expect(senderPassed([], 'ceo@victim.com', 'mx')).toBe(false);
  });
});

describe('readInbound', () => {
  it('finds reply tokens in To and Cc only: Delivered-To and X-Original-To may be the sender’s own', async () => {
    const message = await readInbound(
      Buffer.from(
        'From: a@example.com\r\nTo: Desk <Replies+tokTo@Firm.test>\r\nCc: replies+tokCc@firm.test\r\nDelivered-To: replies+tokDelivered@firm.test\r\nX-Original-To: replies+tokOriginal@firm.test\r\nSubject: hi\r\n\r\nHello\r\n',
      ),
      undefined,
    );
    expect(message.recipients).toEqual(['replies+tokto@firm.test', 'replies+tokcc@firm.test']);
  });

  it('reads an HTML-only message as text, and a date no database can hold as none', async () => {
    const message = await readInbound(
      Buffer.from(
        'From: a@example.com\r\nDate: Fri, 1 Jan 10000 00:00:00 +0000\r\nContent-Type: text/html\r\n\r\n<p>Hello <b>there</b></p>\r\n',
      ),
    );
    expect(message.body).toBe('Hello there');
    expect(message.date).toBeNull();
    expect(storableDate('1899-12-31T00:00:00Z')).toBeNull();
    expect(storableDate('2026-11-27T10:00:00Z')?.toISOString()).toBe('2026-11-27T10:00:00.000Z');
  });

  it('reads HTML nested far deeper than any mail app writes, its words kept', () => {
    const deep = `<p>Hello</p>${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}<p>Bye</p>`;
    expect(htmlAsText(deep)).toBe('Hello\n\ndeep\n\nBye');
  });

  it('drops the tags past a depth, and only those', () => {
    expect(flattenedPast('<div><span><b>x</b></span></div>', 2)).toBe('<div><span>x</span></div>');
    expect(flattenedPast('<div><p>a<p>b<br><img src="i.png"/><span>c</span></div>', 1)).toBe('<div><p>a<p>b<br><img src="i.png"/>c</div>');
    // A closing tag with nothing open never takes the depth below zero.
    expect(flattenedPast('</div></div><div><b>x</b></div>', 1)).toBe('</div></div><div>x</div>');
    const shallow = '<table><tr><td><a href="https://example.com">link</a></td></tr></table>';
    expect(flattenedPast(shallow, 200)).toBe(shallow);
  });
});
