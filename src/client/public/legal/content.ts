/**
 * The words of the careers and legal pages, in one place so they are easy to edit.
 * `{site}`, `{entity}`, `{address}`, `{email}` and `{phone}` are filled in with the site config when rendered
 * (`{email}` becomes a mailto link).
 */
export type ContentSection = { heading: string; paragraphs?: string[]; items?: string[] };

export type ContentDocument = {
  /** Shown in the <title> and the <h1>. */
  title: string;
  /** The meta and Open Graph description. */
  description: string;
  intro: string;
  updated?: string;
  sections: ContentSection[];
};

export type ContentPageKey = 'careers' | 'privacy' | 'terms' | 'cookies';

const LAST_UPDATED = 'January 1, 2025';

export const CONTENT_PAGES: Record<ContentPageKey, ContentDocument> = {
  careers: {
    title: 'Careers',
    description: 'Join {site}: U.S.-based real estate analysts and local market experts.',
    intro: '{site} is a small, U.S.-based team of real estate analysts who help investors decide on deals quickly and with confidence.',
    sections: [
      {
        heading: 'Who we look for',
        items: [
          'Real estate analysts with underwriting or appraisal experience',
          'Local market experts who want to review reports in their area',
          'People who write clearly and care about getting the numbers right',
        ],
      },
      {
        heading: 'Open positions',
        paragraphs: [
          'We have no open positions right now, but we are always glad to hear from good analysts. Send your résumé and the markets you know to {email}.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Privacy Policy',
    description: 'What {site} collects through its website, why, and how long it keeps it.',
    updated: LAST_UPDATED,
    intro: 'This policy explains what {entity} ("{site}", "we") collects when you use this website and what we do with it.',
    sections: [
      {
        heading: 'The contact form',
        paragraphs: ['When you send the contact form we store what you give us, together with the time you sent it:'],
        items: [
          'your name, email address and phone number',
          'the property type you choose',
          'the message you write, if any',
          'the date and time of the submission',
        ],
      },
      {
        heading: 'Email you send us',
        paragraphs: [
          'When you email us, or answer an email from us, we keep the message (its addresses, subject, date, text and attached files) with your request, so our staff see the whole conversation. If you ask us to delete your information, we delete those messages too and keep only keyed fingerprints of your email address and of those messages’ identifiers, never the address or the messages themselves, so that later mail from you is not filed with your old request and the deleted messages are not read into our system again.',
        ],
      },
      {
        heading: 'Your IP address',
        paragraphs: [
          'We use the IP address your request comes from to limit abuse (rate limiting repeated submissions), and our server records it in its request logs, which we use to keep the service secure and working. It is not stored with your lead.',
        ],
      },
      {
        heading: 'Website analytics',
        paragraphs: [
          'We measure how the site is used with our own first-party analytics. When you visit, your browser keeps a random session id in its storage (not a cookie) under the name analytics_session_id. With it we record:',
        ],
        items: [
          'the page path you view',
          'the time you spend on the page',
          'your browser’s user agent',
          'the referrer (the page that linked to us)',
        ],
      },
      {
        heading: 'Global Privacy Control and Do Not Track',
        paragraphs: [
          'If your browser sends a Global Privacy Control or Do Not Track signal, we respect it: nothing is kept in your browser’s storage (a session id kept earlier is removed), and each page you open is counted only as one anonymous page view, with no time on the page and no link between your pages or to a request you send us.',
        ],
      },
      {
        heading: 'What we do not do',
        paragraphs: [
          'We set no cookies on the public website and do no cross-site tracking. We do not sell your information or share it with advertisers.',
        ],
      },
      {
        heading: 'How we use your information',
        paragraphs: ['Our staff use your contact details to answer your request and schedule a call. Only signed-in staff can see leads.'],
      },
      {
        heading: 'Contact',
        paragraphs: ['To see, correct or delete the information we hold about you, email {email} or call {phone}.'],
      },
    ],
  },
  terms: {
    title: 'Terms of Service',
    description: 'The terms for using the {site} website and its due diligence reports.',
    updated: LAST_UPDATED,
    intro: 'By using this website you agree to these terms, which are between you and {entity}, {address}.',
    sections: [
      {
        heading: 'Our reports',
        paragraphs: [
          'Our reports are research to support your own decision. They are not an appraisal, a legal opinion, an inspection or financial advice, and you remain responsible for your investment decisions.',
        ],
      },
      {
        heading: 'Free first analysis',
        paragraphs: [
          'Your first deal analysis is free. We may decline a request, and the scope of paid work is agreed with you in writing before we start.',
        ],
      },
      {
        heading: 'Using this website',
        paragraphs: [
          'Please send only accurate information through the contact form and do not misuse the site, for example by sending automated or repeated submissions.',
        ],
      },
      {
        heading: 'Contact',
        paragraphs: ['Questions about these terms: {email}.'],
      },
    ],
  },
  cookies: {
    title: 'Cookie Policy',
    description: 'The public {site} website sets no cookies.',
    updated: LAST_UPDATED,
    intro: 'The public pages of this website set no cookies, so there is no cookie banner to accept.',
    sections: [
      {
        heading: 'Visitors',
        paragraphs: [
          'Our analytics use a random session id kept in your browser’s storage (analytics_session_id), not a cookie, and do no cross-site tracking. See the Privacy Policy for what is recorded.',
          'If your browser sends a Global Privacy Control or Do Not Track signal, nothing at all is kept in its storage, and your visit is counted only as anonymous page views.',
        ],
      },
      {
        heading: 'Signed-in staff',
        paragraphs: [
          'When our staff sign in to the admin area, we set one httpOnly session cookie that keeps them signed in. It is needed for the admin area to work and is deleted when they log out or the session expires.',
        ],
      },
      {
        heading: 'Contact',
        paragraphs: ['Questions about cookies: {email}.'],
      },
    ],
  },
};
