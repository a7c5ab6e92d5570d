/**
 * The browser tests' HTTPS leg (playwright.config.ts): the built server on its own data
 * directory, reachable only through Caddy with the shipped deploy/Caddyfile, as in production:
 * TRUST_PROXY names Caddy, PUBLIC_URL is the https address. Stops both on SIGTERM or SIGINT.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startCaddy } from '../src/server/test/caddy.ts';

const need = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`e2e-https-server: ${name} is not set`);
  return value;
};
const appPort = Number(need('E2E_HTTPS_APP_PORT'));
const httpsPort = Number(need('E2E_HTTPS_PORT'));
const stateDir = need('E2E_CADDY_DIR');
const dataDir = path.join(stateDir, 'data');
mkdirSync(dataDir, { recursive: true, mode: 0o700 });

const app = spawn(process.execPath, ['dist/server/main.js'], {
  env: {
    ...process.env,
    PORT: String(appPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    TRUST_PROXY: '127.0.0.1,::1',
    PUBLIC_URL: `https://localhost:${httpsPort}`,
  },
  stdio: 'inherit',
});
const caddy = await startCaddy({
  upstreams: [`127.0.0.1:${appPort}`],
  stateDir,
  httpsPort,
  httpPort: Number(need('E2E_HTTP_REDIRECT_PORT')),
});
console.log(`e2e https: ${caddy.url} -> 127.0.0.1:${appPort}`);

let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await caddy.stop();
  app.kill('SIGTERM');
  process.exit(code);
};
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(0));
app.on('exit', (code) => {
  if (!stopping) {
    console.error(`e2e https: the app server exited (${code})\n${caddy.output()}`);
    void stop(1);
  }
});
