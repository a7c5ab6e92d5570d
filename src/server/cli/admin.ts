import { loginRequestSchema } from '#shared/schemas/auth';
import { ensureAdmin, resetPassword } from '../auth/accounts.ts';
import { deleteUser, listUsers } from '../db/queries/users.ts';
import { readPassword } from './read-password.ts';
import { runCli } from './run-cli.ts';

const USAGE = `Usage: npm run admin -- <command>
  create <email>           create an admin (password from a prompt, or the first line of stdin)
  reset-password <email>   set a new password and end that admin's sessions
  list                     list admins
  delete <email>           delete an admin and end their sessions`;

const [command, emailArg] = process.argv.slice(2);

function parseCredentials(email: string | undefined, password: string) {
  const parsed = loginRequestSchema.safeParse({ email: email ?? '', password });
  if (!parsed.success) throw new Error(parsed.error.issues[0]!.message);
  return parsed.data;
}

if (!command || !['create', 'reset-password', 'list', 'delete'].includes(command)) {
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = 2;
} else if (command !== 'list' && !emailArg) {
  process.stderr.write(`admin ${command}: give the admin's email.\n${USAGE}\n`);
  process.exitCode = 2;
} else {
  // Ask for the password before opening the database, so the prompt is not held behind it.
  const password = command === 'create' || command === 'reset-password' ? await readPassword('Password (at least 8 characters): ') : '';
  await runCli(`admin ${command}`, async ({ db }) => {
    if (command === 'list') {
      const users = await listUsers(db);
      process.stdout.write(users.length === 0 ? 'No admins yet.\n' : users.map((u) => `${u.email}\t${u.created_at}`).join('\n') + '\n');
      return;
    }
    if (command === 'delete') {
      const email = parseCredentials(emailArg, 'x'.repeat(8)).email;
      if (!(await deleteUser(db, email))) throw new Error(`No admin has the email ${email}.`);
      process.stdout.write(`Deleted ${email}; their sessions have ended.\n`);
      return;
    }
    const { email } = parseCredentials(emailArg, password);
    if (command === 'create') {
      const { created } = await ensureAdmin(db, email, password);
      if (!created) throw new Error(`An admin with the email ${email} already exists (use reset-password).`);
      process.stdout.write(`Created admin ${email}.\n`);
      return;
    }
    if (!(await resetPassword(db, email, password))) throw new Error(`No admin has the email ${email}.`);
    process.stdout.write(`New password set for ${email}; their sessions have ended.\n`);
  });
}
