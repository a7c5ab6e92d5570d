import { startCaddy, type Caddy } from '../../src/server/test/caddy.ts';
import { freePort, type ServerProcess } from '../../src/server/test/process.ts';

/**
 * Several app processes on one PostgreSQL database behind Caddy's load balancer, started with
 * the shipped deploy/Caddyfile (round robin over the processes that answer /api/health),
 * as docs/operations.md's *More than one process* describes. The site is served over plain http so
 * the load generator (plain HTTP/1.1) can drive it; the proxying is the same as over HTTPS.
 */
export type Cluster = { url: string; servers: ServerProcess[]; caddy: Caddy; stop: () => Promise<void> };

/** Env every process of a cluster needs besides the caller's: Caddy on this machine is its trusted proxy. */
export const CLUSTER_ENV = { TRUST_PROXY: '127.0.0.1,::1' } as const;

export async function startCluster(opts: {
  processes: number;
  /** Starts one app process with this env added (its own port). */
  start: (env: Record<string, string>) => Promise<ServerProcess>;
  env: Record<string, string>;
  stateDir: string;
}): Promise<Cluster> {
  const servers: ServerProcess[] = [];
  const stopServers = () => Promise.all(servers.map((s) => s.stop()));
  try {
    // At once, as after a reboot: the migrations' advisory lock lets one migrate while the others wait.
    servers.push(...(await Promise.all(Array.from({ length: opts.processes }, () => opts.start({ ...opts.env, ...CLUSTER_ENV })))));
    const caddy = await startCaddy({
      upstreams: servers.map((s) => `127.0.0.1:${s.port}`),
      stateDir: opts.stateDir,
      plainHttpPort: await freePort(),
    });
    return {
      url: caddy.url,
      servers,
      caddy,
      stop: async () => {
        await caddy.stop();
        await stopServers();
      },
    };
  } catch (err) {
    await stopServers();
    throw err;
  }
}
