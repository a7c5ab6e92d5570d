/**
 * A deliberately slowed server, for the test of `npm run check:write-paths`: loaded with
 * `node --import ./bench/lib/slow-events.mjs dist/server/main.js`, it holds every request to
 * POST /api/public/events for 200 ms before the app sees it. Never used outside that test.
 */
import http from 'node:http';

const DELAY_MS = 200;
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  const req = args[0];
  if (event === 'request' && req.method === 'POST' && req.url?.startsWith('/api/public/events')) {
    setTimeout(() => emit.call(this, event, ...args), DELAY_MS);
    return true;
  }
  return emit.call(this, event, ...args);
};
