/**
 * A bare Hono hello-world on @hono/node-server, started by bench/run.ts with startServer
 * so benchmarks can print their figures next to the fastest an endpoint gets on this machine.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/', (c) => c.text('Hello Hono!'));

// PORT=0 takes any free port; the one it got goes to startServer over IPC, as the app's does.
const server = serve({ fetch: app.fetch, hostname: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3001) }, (info) => {
  process.send?.({ event: 'listening', port: info.port }, () => {});
});
process.on('SIGTERM', () => {
  server.close();
  process.exit(0);
});
