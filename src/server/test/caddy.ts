import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { freePort, retryOnTakenPort, keepOutput } from './process.ts';

/**
 * Caddy (Debian's package) run with the shipped deploy/Caddyfile in front of app processes,
 * for the tests that go through HTTPS and a load balancer. The site is `localhost`, so Caddy
 * issues its certificate from its own local authority; `caRoot` is that authority's
 * certificate, for clients that verify. Its state (certificates, keys) lives in `stateDir`.
 */
export type Caddy = {
  /** https://localhost:<port> (or http://127.0.0.1:<plainHttpPort>), the site. */
  url: string;
  httpsPort: number;
  /** The port Caddy redirects plain http from. */
  httpPort: number;
  /** PEM of the local authority's root certificate. */
  caRoot: () => string;
  output: () => string;
  stop: () => Promise<void>;
};

const CADDYFILE = path.resolve(import.meta.dirname, '../../../deploy/Caddyfile');

export type CaddyOptions = {
  upstreams: string[];
  stateDir: string;
  httpsPort?: number;
  httpPort?: number;
  /** Whose X-Forwarded-For Caddy keeps (CRM_TRUSTED_PROXIES); the Caddyfile's default is this machine. */
  trustedProxies?: string;
  /**
   * Serve the site over plain http on this port instead (http://127.0.0.1:<port>), for load
   * tests whose generator speaks plain HTTP/1.1: the proxying and balancing are the same.
   */
  plainHttpPort?: number;
};

/**
 * Caddy's ports are written into its configuration before it starts, so they are probed free
 * first; should another process take one meanwhile, Caddy exits and is started again on others.
 */
export function startCaddy(options: CaddyOptions): Promise<Caddy> {
  return retryOnTakenPort(() => startCaddyOnce(options));
}

async function startCaddyOnce(options: CaddyOptions): Promise<Caddy> {
  const httpsPort = options.httpsPort ?? (await freePort());
  const httpPort = options.httpPort ?? (await freePort());
  const adminPort = await freePort();
  mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
  const child: ChildProcess = spawn('caddy', ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    env: {
      PATH: process.env.PATH,
      HOME: options.stateDir,
      XDG_DATA_HOME: options.stateDir,
      XDG_CONFIG_HOME: options.stateDir,
      CRM_DOMAIN: options.plainHttpPort ? `http://127.0.0.1:${options.plainHttpPort}` : `localhost:${httpsPort}`,
      CRM_UPSTREAMS: options.upstreams.join(' '),
      CRM_HTTPS_PORT: String(httpsPort),
      CRM_HTTP_PORT: String(httpPort),
      CRM_CADDY_ADMIN: `127.0.0.1:${adminPort}`,
      ...(options.trustedProxies ? { CRM_TRUSTED_PROXIES: options.trustedProxies } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = keepOutput(child, 200_000);
  const url = options.plainHttpPort ? `http://127.0.0.1:${options.plainHttpPort}` : `https://localhost:${httpsPort}`;
  const caRootPath = path.join(options.stateDir, 'caddy/pki/authorities/local/root.crt');
  const caddy: Caddy = {
    url,
    httpsPort,
    httpPort,
    caRoot: () => readFileSync(caRootPath, 'utf8'),
    output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`caddy exited (${child.exitCode}):\n${output()}`);
    try {
      const status = options.plainHttpPort ? (await fetch(`${url}/api/health`)).status : (await httpsGet(caddy, '/api/health')).status;
      if (status === 200) return caddy;
    } catch {
      // not listening, or no certificate yet
    }
    if (Date.now() > deadline) {
      await caddy.stop();
      throw new Error(`caddy did not answer /api/health within 30 s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export type HttpsAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * A request to the site through Caddy from `localAddress` (any 127.x address on Linux: a
 * visitor of its own), verifying the certificate against Caddy's local authority.
 */
export function httpsRequest(
  caddy: Caddy,
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port: caddy.httpsPort,
        path: pathname,
        method: options.method ?? 'GET',
        localAddress: options.localAddress,
        ca: caddy.caRoot(),
        agent: false,
        headers: {
          host: `localhost:${caddy.httpsPort}`,
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const httpsGet = (caddy: Caddy, pathname: string) => httpsRequest(caddy, pathname);
