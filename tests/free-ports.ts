import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The first of `count` consecutive TCP ports on 127.0.0.1 that are free now, for servers that
 * must be told their port before they start (Playwright's webServer entries). Chosen below the
 * kernel's ephemeral range, so no outgoing connection of the run (to PostgreSQL, the mail sink,
 * Chromium's) can be given one of them meanwhile, and checked by binding each one in a child
 * process (the config is evaluated synchronously).
 */
export function freePortBase(count: number): number {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralLow) - count;
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = low + Math.floor(Math.random() * (high - low));
    if (allFree(base, count)) return base;
  }
  throw new Error(`No ${count} consecutive free ports found between ${low} and ${high + count}.`);
}

function ephemeralRange(): [number, number] {
  try {
    const [a, b] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (a && b) return [a, b];
  } catch {
    // Not Linux: the range most systems use.
  }
  return [32_768, 60_999];
}

const PROBE = `
const net = require('node:net');
const [base, count] = process.argv.slice(1).map(Number);
let left = count, failed = false;
const servers = [];
for (let p = base; p < base + count; p++) {
  const s = net.createServer();
  servers.push(s);
  s.once('error', () => { failed = true; done(); });
  s.listen(p, '127.0.0.1', done);
}
function done() {
  if (--left > 0) return;
  for (const s of servers) s.close();
  process.exitCode = failed ? 1 : 0;
}`;

function allFree(base: number, count: number): boolean {
  try {
    execFileSync(process.execPath, ['-e', PROBE, String(base), String(count)], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}
