import * as z from 'zod';

/**
 * No JIT in the browser. Zod 4 probes `new Function` to compile fast object parsers; our CSP
 * (script-src 'self', no 'unsafe-eval') blocks that and the browser reports a CSP violation
 * on every page. An object schema decides whether to use the JIT when it is created, so this
 * must run first: a browser module that builds zod schemas imports it before them (only the
 * Schedule Appointment form does; the other forms use src/shared/rules), and the admin build
 * puts it in one chunk with zod (vite.admin.config.ts), which loads before any schema.
 * https://zod.dev/api (z.config jitless)
 */
z.config({ jitless: true });
