/**
 * Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) as the browser tests and the
 * Lighthouse bench start it: as root without a sandbox, and without the background
 * connections this machine's closed network refuses.
 */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
