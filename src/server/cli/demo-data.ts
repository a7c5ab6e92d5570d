import { createHash } from 'node:crypto';
import { seededRandom } from '../lib/seeded-random.ts';
import { addDays, isoWeekday, utcDay, zonedParts } from '#shared/zoned-time';
import type { AppointmentType, LeadStatus, PropertyType } from '#shared/constants';
import { deviceOf, referrerHostOf } from '../analytics/event-sources.ts';

/**
 * The demo's story, made by a seeded PRNG relative to `now`, so every run tells the same one:
 * ~120 days of visitors (more on weekdays and in business hours, slowly growing) who view a few
 * pages, some coming back on later days; some see the lead form, fewer start it, fewer send
 * it. The leads they send carry their visit's first touch; staff add a few leads of their own.
 * Leads are then worked: contacted, a call booked, won or dropped, as far as `now` allows.
 */

const DAY = 86_400_000;
const MIN = 60_000;
/** Days of visits before today. */
export const DEMO_DAYS = 120;
/** Visitors over the whole period, before the weekday and growth shape. */
const VISITORS = 3800;
/** The site the tracker runs on: moving between its pages is not a referrer. */
const OWN_HOST = 'demo.example.com';

/** A stable UUID from a name (the hash's first 16 bytes, marked as version 4 / variant 1). */
export function stableUuid(name: string): string {
  const h = createHash('sha256').update(`demo:${name}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A demo analytics session id: the tracker's pattern (16–64 of [A-Za-z0-9_-]), recognisable by its prefix. */
export const DEMO_SESSION_PREFIX = 'demo-';
const sessionId = (n: number) =>
  `${DEMO_SESSION_PREFIX}${createHash('sha256').update(`demo-session:${n}`).digest('base64url').slice(0, 17)}`;

/** The demo's random numbers: the same every run. */
function prng(seed: number) {
  const next = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const weighted = <T>(items: readonly (readonly [T, number])[]): T => {
    let r = next() * items.reduce((n, [, w]) => n + w, 0);
    for (const [item, w] of items) if ((r -= w) < 0) return item;
    return items[items.length - 1]![0];
  };
  return { next, int, pick, weighted, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

/**
 * Where visitors come from (their first touch). `share`: of the visitors; `finish`: of those
 * who start the form, how many send it; `win`: of their leads, how many become clients;
 * `fee`: a client's fee range in dollars.
 */
type Channel = {
  share: number;
  referrer: string | null;
  utm?: [string, string, string];
  landing: readonly (readonly [string, number])[];
  finish: number;
  win: number;
  fee: [number, number];
  types: readonly (readonly [PropertyType, number])[];
};
const HOME: Channel['landing'] = [['/', 1]];
const MIXED_TYPES: Channel['types'] = [
  ['single-family', 4],
  ['multifamily', 3],
  ['commercial', 2],
  ['land', 1],
];
const CHANNELS: Channel[] = [
  {
    share: 31,
    referrer: 'https://www.google.com/',
    landing: [
      ['/', 86],
      ['/careers', 8],
      ['/privacy', 4],
      ['/terms', 2],
    ],
    finish: 0.38,
    win: 0.26,
    fee: [1500, 6000],
    types: MIXED_TYPES,
  },
  {
    share: 19,
    referrer: null,
    landing: [
      ['/', 92],
      ['/careers', 5],
      ['/privacy', 3],
    ],
    finish: 0.45,
    win: 0.3,
    fee: [1500, 7000],
    types: MIXED_TYPES,
  },
  {
    share: 12,
    referrer: 'https://www.google.com/',
    utm: ['google', 'cpc', 'phase-1-esa'],
    landing: HOME,
    finish: 0.34,
    win: 0.2,
    fee: [2000, 4500],
    types: [
      ['commercial', 5],
      ['land', 2],
      ['multifamily', 2],
    ],
  },
  {
    share: 3,
    referrer: 'https://www.google.com/',
    utm: ['google', 'cpc', 'zoning-letters'],
    landing: HOME,
    finish: 0.2,
    win: 0.15,
    fee: [1500, 3000],
    types: [
      ['land', 3],
      ['commercial', 2],
      ['other', 1],
    ],
  },
  {
    share: 6,
    referrer: 'https://www.bing.com/',
    landing: [
      ['/', 95],
      ['/privacy', 5],
    ],
    finish: 0.35,
    win: 0.22,
    fee: [1500, 5000],
    types: MIXED_TYPES,
  },
  {
    share: 4,
    referrer: 'https://www.linkedin.com/',
    utm: ['linkedin', 'social', 'investor-outreach'],
    landing: HOME,
    finish: 0.7,
    win: 0.55,
    fee: [4000, 12000],
    types: [
      ['multifamily', 4],
      ['commercial', 4],
    ],
  },
  {
    share: 4,
    referrer: 'https://www.linkedin.com/',
    landing: [
      ['/careers', 60],
      ['/', 40],
    ],
    finish: 0.4,
    win: 0.3,
    fee: [2500, 8000],
    types: MIXED_TYPES,
  },
  {
    share: 7,
    referrer: 'https://www.biggerpockets.com/forums/',
    landing: HOME,
    finish: 0.42,
    win: 0.2,
    fee: [1500, 4000],
    types: [
      ['single-family', 5],
      ['multifamily', 4],
    ],
  },
  {
    share: 4,
    referrer: 'https://www.loopnet.com/',
    landing: HOME,
    finish: 0.45,
    win: 0.4,
    fee: [3500, 12000],
    types: [
      ['commercial', 6],
      ['land', 2],
    ],
  },
  {
    share: 5,
    referrer: null,
    utm: ['newsletter', 'email', 'market-notes'],
    landing: HOME,
    finish: 0.45,
    win: 0.35,
    fee: [1500, 6000],
    types: MIXED_TYPES,
  },
  { share: 2, referrer: 'https://duckduckgo.com/', landing: HOME, finish: 0.35, win: 0.25, fee: [1500, 5000], types: MIXED_TYPES },
];

const USER_AGENTS = {
  desktop: [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0',
  ],
  mobile: [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  ],
  tablet: [
    'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  ],
};

/** Visits by local hour: business hours on weekdays, flatter on weekends. */
const WEEKDAY_HOURS = [
  0.2, 0.1, 0.1, 0.1, 0.15, 0.3, 0.6, 1.2, 2.2, 3.2, 3.6, 3.5, 3.0, 3.3, 3.4, 3.1, 2.6, 2.0, 1.5, 1.4, 1.3, 1.0, 0.7, 0.4,
].map((w, h) => [h, w] as const);
const WEEKEND_HOURS = [
  0.3, 0.2, 0.1, 0.1, 0.1, 0.2, 0.4, 0.7, 1.1, 1.6, 2.0, 2.1, 2.0, 1.9, 1.8, 1.7, 1.6, 1.5, 1.5, 1.5, 1.4, 1.1, 0.8, 0.5,
].map((w, h) => [h, w] as const);
const DAY_WEIGHT = [0, 1.0, 1.1, 1.1, 1.0, 0.85, 0.42, 0.38]; // by ISO weekday

const FIRST = [
  'James',
  'Maria',
  'Robert',
  'Linda',
  'Michael',
  'Patricia',
  'David',
  'Jennifer',
  'Carlos',
  'Aisha',
  'Kevin',
  'Priya',
  'Thomas',
  'Grace',
  'Daniel',
  'Sofia',
  'Marcus',
  'Emily',
  'Andre',
  'Hannah',
  'Victor',
  'Nadia',
  'Owen',
  'Rachel',
  'Samuel',
  'Tanya',
  'Wesley',
  'Yvonne',
];
const LAST = [
  'Carter',
  'Nguyen',
  'Patel',
  'Johnson',
  'Rivera',
  'Kim',
  'Thompson',
  'Garcia',
  'Brooks',
  'Murphy',
  'Okafor',
  'Schmidt',
  'Reyes',
  'Coleman',
  'Walsh',
  'Foster',
  'Hughes',
  'Bennett',
  'Lopez',
  'Sullivan',
  'Price',
];
const MESSAGES: Record<PropertyType, string[]> = {
  'single-family': [
    'First-time investor, single-family in Hagerstown. What does your report include?',
    'Under contract on a rehab in Towson, inspection period ends in 10 days. Need title and permit history.',
    'Need a second opinion on a BRRRR deal before closing.',
  ],
  multifamily: [
    'Looking at a 4-unit in Baltimore, need rent comps and a rehab estimate.',
    'Portfolio of 6 small multifamily buildings in Ohio, need underwriting this week.',
    '12-unit garden apartments, lender wants a Phase I and a property condition report.',
  ],
  commercial: [
    'Evaluating a strip mall in Frederick. Can you review the T-12?',
    'Former gas station lot, lender is asking for a Phase I ESA before we close.',
    'Mixed-use building, retail below and 3 apartments above.',
    'Small industrial flex building, need a Phase I and a zoning letter.',
  ],
  land: ['Raw land parcel, 12 acres, zoning questions.', 'Infill lot, can we build a duplex? Need a zoning letter.'],
  other: ['Church property for sale, not sure what due diligence we need.', ''],
};
const STREETS = [
  'Elm St',
  'Harbor Way',
  'N Charles St',
  'Market St',
  'Greenmount Ave',
  'Eastern Ave',
  'Light St',
  'Fleet St',
  'York Rd',
  'Frederick Rd',
  'Belair Rd',
  'Main St',
];
const TOWNS = [
  'Baltimore, MD',
  'Towson, MD',
  'Frederick, MD',
  'Columbia, MD',
  'Annapolis, MD',
  'Hagerstown, MD',
  'York, PA',
  'Wilmington, DE',
];
const NOTES = [
  'Called: wants a Phase I before the inspection period ends.\nSent our fee sheet.',
  'Spoke with their lender; title search first, zoning letter after.',
  'Left a voicemail. Will try again Thursday.',
  'Walked the site with them. See https://example.com/site-photos for the photos.',
  'Sent the engagement letter and the sample report.',
  'They are comparing three firms; our turnaround is the selling point.',
];
const STAFF_MESSAGES = [
  'Referred by their lender (First Harbor Bank).',
  'Called the office after a broker recommended us.',
  'Met at the REIA meetup; wants a quote.',
  'Repeat client, new acquisition.',
  null,
];
const APPOINTMENT_NOTES = [
  'Walk through the rent roll.',
  'Bring comps for the area.',
  'Discuss report scope and timeline.',
  'Review the lender’s requirements.',
  null,
];

export type DemoEvent = {
  session_id: string;
  page_path: string;
  event_type: 'pageview' | 'heartbeat' | 'time_spent' | 'form_view' | 'form_start';
  time_spent: number | null;
  user_agent: string;
  referrer: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  referrer_host: string | null;
  device: string;
  /** Epoch milliseconds. */
  at: number;
};

export type DemoStatusChange = { from: LeadStatus | null; to: LeadStatus; at: number; byStaff: boolean };

export type DemoLead = {
  id: string;
  submission_id: string | null;
  analytics_session_id: string | null;
  source: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  landing_page: string | null;
  pages_viewed: number | null;
  full_name: string;
  email: string;
  phone: string;
  property_types: PropertyType[];
  message: string | null;
  created_at: number;
  status: LeadStatus;
  history: DemoStatusChange[];
  /** Worked leads (past New) belong to the demo admin. */
  owned: boolean;
  property_address: string | null;
  estimated_fee_cents: number | null;
  /** Days from today. */
  target_closing_in: number | null;
  follow_up_in: number | null;
  follow_up_note: string | null;
  note: { body: string; at: number } | null;
};

export type DemoAppointment = {
  id: string;
  lead_id: string;
  date: string;
  time: string;
  type: AppointmentType;
  notes: string | null;
  status: 'scheduled' | 'completed';
  source: 'staff' | 'booking';
  location: string | null;
  created_at: number;
  /** Staff made it (the demo admin), or the lead through the booking link. */
  byStaff: boolean;
};

export type DemoStory = { events: DemoEvent[]; leads: DemoLead[]; appointments: DemoAppointment[] };

/** One event, always of the same shape. */
function ev(
  session_id: string,
  page_path: string,
  event_type: DemoEvent['event_type'],
  at: number,
  time_spent: number | null,
  user_agent: string,
  device: string,
  referrer: string | null,
  referrer_host: string | null,
): DemoEvent {
  return {
    session_id,
    page_path,
    event_type,
    time_spent,
    user_agent,
    referrer,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    referrer_host,
    device,
    at,
  };
}

/** Page views of a visit: the landing page, then sometimes another page or two. */
function browse(rng: Rng, landing: string): string[] {
  const pages = [landing];
  if (landing !== '/' && rng.chance(0.45)) pages.push('/');
  while (pages.length < 4 && rng.chance(pages.length === 1 ? 0.38 : 0.25)) {
    pages.push(
      rng.weighted([
        ['/', 5],
        ['/privacy', 2],
        ['/careers', 2],
        ['/terms', 1],
        ['/cookies', 1],
      ] as const),
    );
  }
  return pages;
}

/** Seconds on a page: the home page holds people longer than the legal pages. */
const dwellOn = (rng: Rng, path: string, first: boolean) =>
  path === '/'
    ? first && rng.chance(0.3)
      ? rng.int(4, 20)
      : 20 + Math.floor(rng.next() ** 2 * 200)
    : path === '/careers'
      ? rng.int(15, 90)
      : rng.int(6, 45);

export function demoStory(now: number, timeZone: string): DemoStory {
  const rng = prng(20_240_611);
  const events: DemoEvent[] = [];
  const leads: DemoLead[] = [];
  const appointments: DemoAppointment[] = [];
  const today = zonedParts(now, timeZone).date;
  // A date's UTC offset at noon (cached: thousands of visits a day would ask Intl again and
  // again); exact but for the small hours of a day the clocks change.
  const offsets = new Map<string, number>();
  const offsetOn = (date: string) => {
    let offset = offsets.get(date);
    if (offset === undefined) offsets.set(date, (offset = zonedParts(utcDay(date) + 12 * 3_600_000, timeZone).offsetMinutes));
    return offset;
  };
  const localAt = (date: string, minutes: number) => utcDay(date) + (minutes - offsetOn(date)) * MIN;
  const localDate = (instant: number) => zonedParts(instant, timeZone).date;

  // Visitors per day: weekdays busier, about 40% more at the end than 120 days ago.
  const dayWeights = Array.from({ length: DEMO_DAYS + 1 }, (_, i) => {
    const date = addDays(today, -(DEMO_DAYS - i));
    return { date, weight: DAY_WEIGHT[isoWeekday(date)]! * (0.8 + (0.35 * i) / DEMO_DAYS) * (0.85 + rng.next() * 0.3) };
  });
  const perWeight = VISITORS / dayWeights.reduce((n, d) => n + d.weight, 0);

  let visitorNo = 0;
  for (const { date, weight } of dayWeights) {
    const weekend = isoWeekday(date) >= 6;
    const count = Math.round(weight * perWeight);
    for (let k = 0; k < count; k++) {
      const start = localAt(date, rng.weighted(weekend ? WEEKEND_HOURS : WEEKDAY_HOURS) * 60 + rng.int(0, 59)) + rng.int(0, 59_000);
      const channel = rng.weighted(CHANNELS.map((c) => [c, c.share] as const));
      const userAgent = rng.pick(
        USER_AGENTS[
          rng.weighted([
            ['desktop', 60],
            ['mobile', 34],
            ['tablet', 6],
          ] as const)
        ],
      );
      const device = deviceOf(userAgent);
      const landing = rng.weighted(channel.landing);
      visitorNo++;
      if (start > now - 2 * MIN) continue;
      const session = sessionId(visitorNo);

      // The visits: the first, and for some a return on a later day (typed in, or searched again).
      const visits: { at: number; referrer: string | null; pages: string[] }[] = [
        { at: start, referrer: channel.referrer, pages: browse(rng, landing) },
      ];
      let returnAt = start;
      for (const p of [0.22, 0.25]) {
        if (!rng.chance(p)) break;
        returnAt += rng.int(1, 14) * DAY + rng.int(-180, 180) * MIN;
        if (returnAt > now - 10 * MIN) break;
        visits.push({ at: returnAt, referrer: rng.chance(0.6) ? null : 'https://www.google.com/', pages: browse(rng, '/') });
      }

      // The lead form (on the home page): seen, started, sent.
      const sawForm = rng.chance(landing === '/' ? 0.42 : 0.16);
      const started = sawForm && rng.chance(0.26);
      const sent = started && rng.chance(channel.finish * 0.85);
      // The visit the form was used on: the first, or for a returning visitor often the return.
      const formVisit = visits.length > 1 && rng.chance(0.45) ? rng.int(1, visits.length - 1) : 0;
      if (sawForm && !visits[formVisit]!.pages.includes('/')) visits[formVisit]!.pages.push('/');

      let pageViews = 0;
      let firstView: DemoEvent | undefined;
      let lead: { at: number; pagesViewed: number } | null = null;
      let bookedAt: number | null = null;
      for (const [v, visit] of visits.entries()) {
        let t = visit.at;
        let formDone = false;
        for (const [p, path] of visit.pages.entries()) {
          const referrer = p === 0 ? visit.referrer : `https://${OWN_HOST}${visit.pages[p - 1]}`;
          const view = ev(
            session,
            path,
            'pageview',
            t,
            null,
            userAgent,
            device,
            referrer,
            referrerHostOf(referrer ?? undefined, OWN_HOST) ?? null,
          );
          if (v === 0 && p === 0 && channel.utm) [view.utm_source, view.utm_medium, view.utm_campaign] = channel.utm;
          events.push(view);
          firstView ??= view;
          pageViews++;
          let dwell = dwellOn(rng, path, p === 0);
          const extra = (type: DemoEvent['event_type'], at: number, seconds: number | null = null, page = path) =>
            events.push(ev(session, page, type, at, seconds, userAgent, device, null, null));
          if (v === formVisit && path === '/' && sawForm && !formDone) {
            formDone = true;
            const viewAt = rng.int(8, 70);
            extra('form_view', t + viewAt * 1000);
            dwell = Math.max(dwell, viewAt + 10);
            if (started) {
              const startAt = viewAt + rng.int(4, 50);
              extra('form_start', t + startAt * 1000);
              dwell = Math.max(dwell, startAt + rng.int(15, 90));
              if (sent) {
                const sentAt = startAt + rng.int(60, 360);
                lead = { at: t + sentAt * 1000, pagesViewed: pageViews };
                dwell = sentAt + rng.int(8, 40);
              }
            }
          }
          // A heartbeat every 30 s on the page, the rest on leaving.
          for (let s = 30; s <= dwell; s += 30) extra('heartbeat', t + s * 1000, 30);
          if (dwell % 30 > 0) extra('time_spent', t + dwell * 1000, dwell % 30);
          t += (dwell + rng.int(1, 4)) * 1000;
          if (lead && lead.at < t && bookedAt === null && rng.chance(0.2)) {
            // Booked a call at once through the link the form's answer gave.
            bookedAt = t + rng.int(20, 120) * 1000;
            events.push(ev(session, '/booking', 'pageview', bookedAt, null, userAgent, device, `https://${OWN_HOST}/`, null));
            extra('time_spent', bookedAt + 45_000, 45, '/booking');
            pageViews++;
            t = bookedAt + 50_000;
          }
        }
      }
      if (lead && lead.at <= now - MIN) {
        const first = firstView!;
        leads.push(
          newLead(rng, leads.length, {
            analytics_session_id: session,
            source: first.referrer_host,
            utm_source: first.utm_source,
            utm_medium: first.utm_medium,
            utm_campaign: first.utm_campaign,
            landing_page: first.page_path,
            pages_viewed: lead.pagesViewed,
            created_at: lead.at,
            channel,
            selfBookedAt: bookedAt !== null && bookedAt < now ? bookedAt : null,
          }),
        );
      }
    }
  }

  // A few website leads without a visit (the visitor asked not to be tracked), and leads staff typed in.
  const staffChannel: Channel = { share: 0, referrer: null, landing: HOME, finish: 1, win: 0.4, fee: [2500, 12000], types: MIXED_TYPES };
  for (let i = 0; i < 6; i++) {
    const date = addDays(today, -rng.int(1, DEMO_DAYS - 1));
    leads.push(
      newLead(rng, leads.length, {
        created_at: localAt(date, rng.weighted(WEEKDAY_HOURS) * 60 + rng.int(0, 59)),
        channel: CHANNELS[1]!,
        selfBookedAt: null,
      }),
    );
  }
  for (let i = 0; i < 28; i++) {
    let date = addDays(today, -rng.int(1, DEMO_DAYS - 1));
    while (isoWeekday(date) >= 6) date = addDays(date, -1);
    leads.push(
      newLead(rng, leads.length, {
        created_at: localAt(date, rng.int(9 * 60, 17 * 60)),
        channel: staffChannel,
        selfBookedAt: null,
        byStaff: true,
      }),
    );
  }
  leads.sort((a, b) => a.created_at - b.created_at);
  const wonSoFar = new Map<Channel, number>();
  for (const lead of leads) work(rng, lead, appointments, wonSoFar, now, localAt, localDate);

  events.sort((a, b) => a.at - b.at);
  return { events: events.filter((e) => e.at <= now), leads, appointments };
}

type LeadStart = Partial<
  Pick<DemoLead, 'analytics_session_id' | 'source' | 'utm_source' | 'utm_medium' | 'utm_campaign' | 'landing_page' | 'pages_viewed'>
> & {
  created_at: number;
  channel: Channel;
  selfBookedAt: number | null;
  byStaff?: boolean;
};

const leadChannels = new WeakMap<DemoLead, { channel: Channel; selfBookedAt: number | null }>();

function newLead(rng: Rng, n: number, start: LeadStart): DemoLead {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const type = rng.weighted(start.channel.types);
  const types: PropertyType[] = rng.chance(0.15) ? [...new Set<PropertyType>([type, rng.weighted(MIXED_TYPES)])] : [type];
  const lead: DemoLead = {
    id: stableUuid(`lead-${n}`),
    submission_id: start.byStaff ? null : stableUuid(`submission-${n}`),
    analytics_session_id: start.analytics_session_id ?? null,
    source: start.source ?? null,
    utm_source: start.utm_source ?? null,
    utm_medium: start.utm_medium ?? null,
    utm_campaign: start.utm_campaign ?? null,
    landing_page: start.landing_page ?? null,
    pages_viewed: start.pages_viewed ?? null,
    full_name: `${first} ${last}`,
    email: `${first}.${last}${n}@example.com`.toLowerCase(),
    phone: `(${rng.pick([240, 301, 410, 443, 667, 717, 302])}) 555-${String(rng.int(100, 9999)).padStart(4, '0')}`,
    property_types: types,
    message: start.byStaff ? rng.pick(STAFF_MESSAGES) : rng.pick(MESSAGES[type]) || null,
    created_at: start.created_at,
    status: 'New',
    history: [{ from: null, to: 'New', at: start.created_at, byStaff: !!start.byStaff }],
    owned: false,
    property_address: null,
    estimated_fee_cents: null,
    target_closing_in: null,
    follow_up_in: null,
    follow_up_note: null,
    note: null,
  };
  leadChannels.set(lead, { channel: start.channel, selfBookedAt: start.selfBookedAt });
  return lead;
}

/** The next business-hours moment at or after `at` (weekdays, 9:00–17:00 local). */
function businessTime(
  at: number,
  localAt: (date: string, minutes: number) => number,
  localDate: (instant: number) => string,
  rng: Rng,
): number {
  let date = localDate(at);
  for (let i = 0; i < 8; i++) {
    if (isoWeekday(date) <= 5) {
      const open = localAt(date, 9 * 60 + rng.int(0, 50));
      const close = localAt(date, 17 * 60);
      if (at < open) return open;
      if (at < close) return at;
    }
    date = addDays(date, 1);
  }
  return at;
}

/** How staff worked a lead: contacted, a call, then won or dropped, as far as `now` allows. */
function work(
  rng: Rng,
  lead: DemoLead,
  appointments: DemoAppointment[],
  wonSoFar: Map<Channel, number>,
  now: number,
  localAt: (date: string, minutes: number) => number,
  localDate: (instant: number) => string,
): void {
  const { channel, selfBookedAt } = leadChannels.get(lead)!;
  const step = (to: LeadStatus, at: number) => {
    if (at > now) return false;
    lead.history.push({ from: lead.status, to, at, byStaff: true });
    lead.status = to;
    return true;
  };
  const n = Number.parseInt(lead.id.slice(0, 8), 16);
  // Staff-entered leads were talked to already; most website leads are called back within hours.
  const contactAt = lead.submission_id
    ? businessTime(lead.created_at + rng.int(8, 150) * MIN, localAt, localDate, rng)
    : lead.created_at + rng.int(2, 30) * MIN;
  if (rng.chance(0.06) && now - lead.created_at > 10 * DAY) return; // never answered: stays New
  if (!step('Contacted', contactAt)) return;
  lead.owned = true;
  lead.property_address = `${100 + (n % 8900)} ${rng.pick(STREETS)}, ${rng.pick(TOWNS)}`;
  lead.note = { body: rng.pick(NOTES), at: Math.min(now, contactAt + rng.int(3, 40) * MIN) };

  // Won in the channel's proportion, spread over time (error diffusion, not a coin per lead):
  // with a few leads per source, coins would let chance decide which source looks best.
  const credit = (wonSoFar.get(channel) ?? rng.next()) + channel.win;
  const wins = credit >= 1;
  wonSoFar.set(channel, wins ? credit - 1 : credit);
  // Leads of the last week are still in play: most have a call coming.
  const recent = now - contactAt < 7 * DAY;
  const hasCall = selfBookedAt !== null || wins || rng.chance(recent ? 0.75 : 0.3);
  let callAt: number | null = null;
  if (hasCall) {
    // The call: booked by the lead right after sending the form, or by staff when they called back.
    const bookedAt = selfBookedAt ?? Math.min(now, contactAt + rng.int(5, 30) * MIN);
    let date = addDays(localDate(bookedAt), recent ? rng.int(2, 9) : rng.int(1, 6));
    while (isoWeekday(date) >= 6) date = addDays(date, 1);
    const minutes = rng.int(18, 33) * 30; // 9:00–16:30
    callAt = localAt(date, minutes);
    const type = rng.weighted([
      ['Call', 5],
      ['Zoom', 3],
      ['On-site', 2],
    ] as const);
    appointments.push({
      id: stableUuid(`appointment-${lead.id}`),
      lead_id: lead.id,
      date,
      time: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 === 0 ? '00' : '30'}`,
      type,
      notes: rng.pick(APPOINTMENT_NOTES),
      status: callAt < now ? 'completed' : 'scheduled',
      source: selfBookedAt !== null ? 'booking' : 'staff',
      location: type === 'Zoom' ? 'https://zoom.us/j/5550100123' : type === 'On-site' ? lead.property_address : null,
      created_at: bookedAt,
      byStaff: selfBookedAt === null,
    });
  }
  const [low, high] = channel.fee;
  const fee = Math.round((low + rng.next() * (high - low)) / 50) * 50 * 100;
  if (wins) {
    // Won after the call, once the engagement letter came back signed.
    step('Converted', businessTime((callAt ?? contactAt) + rng.int(1, 6) * DAY, localAt, localDate, rng));
  } else if (rng.chance(0.55)) {
    step('Dropped', businessTime((callAt ?? contactAt) + rng.int(2, 12) * DAY, localAt, localDate, rng));
  }
  if (lead.status !== 'Dropped' && (lead.status === 'Converted' || callAt !== null || rng.chance(0.5))) lead.estimated_fee_cents = fee;
  if (lead.status !== 'Dropped') lead.target_closing_in = rng.int(10, 60);
  if (lead.status === 'Contacted' && callAt === null && rng.chance(0.6)) {
    lead.follow_up_in = rng.int(-3, 7);
    lead.follow_up_note = rng.pick([
      'Send the zoning report',
      'Call back about the fee sheet',
      'Ask the lender for the scope',
      'Check the inspection deadline',
    ]);
  }
}
