import { ADMIN_COMMANDS, adminCommandSchema, runAdminCommand } from '../auth/admin-commands.ts';
import type { Config } from '../config.ts';
import { backupSocketPath, NoBackupServerError, requestAdminCommand } from '../db/embedded/backup-control.ts';
import { DataDirError } from '../db/embedded/data-dir-errors.ts';
import { DataDirLockedError } from '../db/embedded/data-dir-lock.ts';
import { queueMailOf } from '../db/queries/emails-queries.ts';
import { openConfiguredDatabase } from '../db/open.ts';
import { rotateCredentialsKey } from '../db/sealed-secrets.ts';
import { readPassword } from './read-password.ts';
import { runCommand } from './run-cli.ts';

const USAGE = `Usage: npm run admin -- <command>
  create <email> [--name "Full Name"] [--role staff]
                                  create an account, an owner unless --role staff, named --name (else the part of the
                                  email before the @); the password from a prompt, or the first line of stdin
  reset-password <email>          set a new password and end that account's sessions
  list                            list accounts (email, role, active or deactivated, two-factor, created, name)
  delete <email>                  delete an account and end its sessions
  role <email> <owner|staff>      change an account's role (the team keeps at least one active owner)
  deactivate <email>              stop an account signing in and end its sessions
  reactivate <email>              let a deactivated account sign in again
  reset-two-factor <email>        turn two-factor off (a lost phone and lost recovery codes)
  rotate-credentials-key [--forget-unreadable]
                                  seal every connected calendar's password with a new key: with the key file, a new
                                  DATA_DIR/credentials.key (stop the server first); with CREDENTIALS_KEY, the one it
                                  holds now (the old one as CREDENTIALS_KEY_PREVIOUS). --forget-unreadable removes the
                                  calendars no key opens (their owners connect them again)
With the embedded database, a running server carries the command out (over its control socket), but for
rotate-credentials-key, which needs it stopped: a server reads the key when it starts.`;

const ROTATE = 'rotate-credentials-key';

/** The command line as a request, or a usage message. */
type Parsed = { command: string; email?: string; role?: string; name?: string };
type Rotation = { command: typeof ROTATE; forgetUnreadable: boolean };

function parseArgs(args: string[]): Parsed | Rotation | string {
  const [command, email, ...rest] = args;
  if (command === ROTATE) {
    const options = args.slice(1);
    if (options.length > 1 || (options.length === 1 && options[0] !== '--forget-unreadable')) return USAGE;
    return { command, forgetUnreadable: options.length === 1 };
  }
  if (!command || !(ADMIN_COMMANDS as readonly string[]).includes(command)) return USAGE;
  if (command === 'list') return rest.length === 0 && email === undefined ? { command } : USAGE;
  if (!email || email.startsWith('--')) return `admin ${command}: give the account's email.\n${USAGE}`;
  if (command === 'create') {
    const options: Record<string, string> = {};
    for (let i = 0; i < rest.length; i += 2) {
      const [flag, value] = [rest[i]!, rest[i + 1]];
      if ((flag !== '--role' && flag !== '--name') || value === undefined || flag in options) return USAGE;
      options[flag] = value;
    }
    const role = options['--role'] ?? 'owner';
    if (role !== 'owner' && role !== 'staff') return USAGE;
    return { command, email, role, ...(options['--name'] !== undefined && { name: options['--name'] }) };
  }
  if (command === 'role')
    return rest.length === 1 && (rest[0] === 'owner' || rest[0] === 'staff') ? { command, email, role: rest[0] } : USAGE;
  return rest.length === 0 ? { command, email } : USAGE;
}

/**
 * Run by this process only: a server reads the key when it starts, so the key is not changed
 * under a running one (and the embedded database is in its hands meanwhile).
 */
async function rotate(config: Config, forgetUnreadable: boolean): Promise<void> {
  let database;
  try {
    database = await openConfiguredDatabase(config, `admin ${ROTATE}`);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    throw new DataDirError(`${err.inUse}. Stop the server, run ${ROTATE}, then start it again: a server reads the key when it starts.`, {
      cause: err,
    });
  }
  try {
    process.stdout.write(await rotateCredentialsKey(database.db, config, { forgetUnreadable }));
  } finally {
    await database.close();
  }
}

const parsed = parseArgs(process.argv.slice(2));
if (typeof parsed === 'string') {
  process.stderr.write(`${parsed}\n`);
  process.exitCode = 2;
} else if ('forgetUnreadable' in parsed) {
  await runCommand(`admin ${ROTATE}`, (config) => rotate(config, parsed.forgetUnreadable));
} else {
  // Ask for the password before opening the database, so the prompt is not held behind it.
  const needsPassword = parsed.command === 'create' || parsed.command === 'reset-password';
  const request = adminCommandSchema.parse(
    needsPassword ? { ...parsed, password: await readPassword('Password (at least 8 characters): ') } : parsed,
  );
  await runCommand(`admin ${parsed.command}`, async (config) => {
    let database;
    try {
      database = await openConfiguredDatabase(config, `admin ${parsed.command}`);
    } catch (err) {
      if (!(err instanceof DataDirLockedError)) throw err;
      // The embedded database is in a running server's hands: it carries the command out.
      try {
        process.stdout.write(await requestAdminCommand(backupSocketPath(config.dataDir), request));
        return;
      } catch (requestErr) {
        if (!(requestErr instanceof NoBackupServerError)) throw requestErr;
        throw new Error(
          `${err.message} It does not answer admin commands (${requestErr.message}); stop it, or run the command again once it has started.`,
          { cause: requestErr },
        );
      }
    }
    try {
      process.stdout.write((await runAdminCommand(database.db, request, queueMailOf(config.mail))).output);
    } finally {
      await database.close();
    }
  });
}
