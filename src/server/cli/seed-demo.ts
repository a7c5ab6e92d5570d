import { seedDemo } from './demo-seed.ts';
import { runCli } from './run-cli.ts';

// npm run seed:demo — believable leads, appointments, notifications and analytics, plus a demo admin.
await runCli('seed:demo', async (database, config) => {
  process.stdout.write(await seedDemo(database.db, config));
});
