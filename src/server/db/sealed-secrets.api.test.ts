import { readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { KEY_FILE, NEXT_KEY_FILE, prepareNextKey, PREVIOUS_KEY_FILE } from '../lib/credentials-key-file.ts';
import { CredentialsKey, parseCredentialsKey } from '../lib/credentials-key.ts';
import { createVault, loadCredentialsVault, type CredentialsSettings, type CredentialsVault } from '../lib/credentials.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { tempDir } from '../test/process.ts';
import {
  calendarSecretContext,
  movedSecretsReminder,
  resealSecrets,
  rotateCredentialsKey,
  sealedSecretsProblem,
  webhookSecretContext,
} from './sealed-secrets.ts';
import { execute } from './sql.ts';

// The stored calendar passwords against the keys a process has: the start-up check, rotation
// (and a crash at each of its steps), on a real database.
const database = useTestDatabase();

const SECRET = JSON.stringify({ url: 'https://dav.example.com/calendars/jo/', username: 'jo', password: 'app-password-1' });

const fileSettings = (dataDir: string): CredentialsSettings => ({
  credentialsKey: undefined,
  credentialsKeyPrevious: undefined,
  dataDir,
  databaseUrl: undefined,
});

function usable(vault: CredentialsVault) {
  if (!vault.available) throw new Error(vault.reason);
  return vault;
}

/** A team member with one connected calendar whose secret `vault` sealed: the connection's id. */
async function connect(vault: CredentialsVault, secret = SECRET): Promise<string> {
  const db = database.db;
  const email = `member-${crypto.randomUUID()}@example.com`;
  const [user] = await rowsOf<{ id: string }>(
    db,
    sql`insert into users (email, display_name, password_hash) values (${email}, 'Jo Member', 'not-a-hash') returning id`,
  );
  const id = crypto.randomUUID();
  await execute(
    db,
    sql`insert into calendar_connections (id, user_id, kind, label, secret)
        values (${id}, ${user!.id}, 'caldav', 'dav.example.com', ${usable(vault).seal(secret, calendarSecretContext(id))})`,
  );
  return id;
}

const secretOf = async (id: string) =>
  (await rowsOf<{ secret: string }>(database.db, sql`select secret from calendar_connections where id = ${id}`))[0]?.secret;

/** Whether `vault` opens connection `id`'s secret to what was sealed. */
async function opens(vault: CredentialsVault, id: string): Promise<boolean> {
  try {
    return usable(vault).open((await secretOf(id))!, calendarSecretContext(id)) === SECRET;
  } catch {
    return false;
  }
}

const HOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const PREVIOUS_HOOK_SECRET = 'whsec_c2VjcmV0LWJlZm9yZS10aGUtcm90YXRpb24tMDE=';

/** A webhook endpoint whose secret `vault` sealed, and its previous secret `previousVault` (a rotation within 24 hours): its id. */
async function addWebhook(vault: CredentialsVault, previousVault?: CredentialsVault): Promise<string> {
  const id = crypto.randomUUID();
  const context = webhookSecretContext(id);
  const previous = previousVault ? usable(previousVault).seal(PREVIOUS_HOOK_SECRET, context) : null;
  await execute(
    database.db,
    sql`insert into webhook_endpoints (id, url, events, secret, previous_secret, previous_secret_until)
        values (${id}, 'https://hooks.example.com/crm', array['lead.created'], ${usable(vault).seal(HOOK_SECRET, context)},
                ${previous}, ${previous ? sql`now() + interval '1 day'` : null})`,
  );
  return id;
}

const hookSecretsOf = async (id: string) =>
  (
    await rowsOf<{ secret: string; previous_secret: string | null }>(
      database.db,
      sql`select secret, previous_secret from webhook_endpoints where id = ${id}`,
    )
  )[0];

/** Whether `vault` opens endpoint `id`'s secret, and its previous one (null when it has none), to what was sealed. */
async function opensHook(vault: CredentialsVault, id: string): Promise<[boolean, boolean | null]> {
  const row = (await hookSecretsOf(id))!;
  const tryOpen = (sealed: string, plain: string) => {
    try {
      return usable(vault).open(sealed, webhookSecretContext(id)) === plain;
    } catch {
      return false;
    }
  };
  return [tryOpen(row.secret, HOOK_SECRET), row.previous_secret === null ? null : tryOpen(row.previous_secret, PREVIOUS_HOOK_SECRET)];
}

const keyIn = (dataDir: string, name: string) => parseCredentialsKey(readFileSync(path.join(dataDir, name), 'utf8')) as CredentialsKey;

beforeEach(async () => {
  await execute(database.db, sql`truncate calendar_connections, webhook_endpoints, users cascade`);
});

describe('the start-up check', () => {
  it('passes with no connected calendar, whatever the keys', async () => {
    const settings = { ...fileSettings(tempDir('sealed-none')), databaseUrl: 'postgres://db/crm' };
    expect(await sealedSecretsProblem(database.db, loadCredentialsVault(settings), settings)).toBeUndefined();
  });

  it('passes when the vault has every key the calendars were sealed with, the previous one included', async () => {
    const [current, previous] = [CredentialsKey.random(), CredentialsKey.random()];
    await connect(createVault(previous));
    await connect(createVault(current));
    const settings = { ...fileSettings(tempDir('sealed-ok')), credentialsKey: current, credentialsKeyPrevious: previous };
    expect(await sealedSecretsProblem(database.db, loadCredentialsVault(settings), settings)).toBeUndefined();
  });

  it('refuses PostgreSQL without CREDENTIALS_KEY when calendars are connected, asking for the key they were sealed with', async () => {
    const key = CredentialsKey.random();
    await connect(createVault(key));
    await connect(createVault(key));
    const settings = { ...fileSettings(tempDir('sealed-postgres')), databaseUrl: 'postgres://db/crm' };
    expect(await sealedSecretsProblem(database.db, loadCredentialsVault(settings), settings)).toBe(
      `The database holds 2 connected calendars, sealed with key ${key.id}, and CREDENTIALS_KEY is not set. Set it on every server process to the key they were sealed with: after a move from the embedded database, the content of its DATA_DIR's credentials.key (CREDENTIALS_KEY=$(cat data/credentials.key)).`,
    );
  });

  it('refuses calendars sealed with a key the vault lacks, naming the setting and only the key id', async () => {
    const lost = CredentialsKey.random();
    const current = CredentialsKey.random();
    await connect(createVault(lost));
    await connect(createVault(current));
    const envSettings = { ...fileSettings(tempDir('sealed-env')), credentialsKey: current };
    const withEnv = await sealedSecretsProblem(database.db, loadCredentialsVault(envSettings), envSettings);
    expect(withEnv).toBe(
      `1 of the 2 connected calendars was sealed with a key this server does not have (key ${lost.id}). Set CREDENTIALS_KEY to the key it was sealed with (or keep that key as CREDENTIALS_KEY_PREVIOUS until rotate-credentials-key has run), then start again. If that key is lost, npm run admin -- rotate-credentials-key --forget-unreadable removes it, and its owner connects it again.`,
    );
    const dataDir = tempDir('sealed-file');
    const fromFile = await sealedSecretsProblem(database.db, loadCredentialsVault(fileSettings(dataDir)), fileSettings(dataDir));
    expect(fromFile).toMatch(
      new RegExp(
        `^2 connected calendars were sealed with a key this server does not have \\(key (${lost.id}, ${current.id}|${current.id}, ${lost.id})\\)\\. Put the credentials\\.key file they were sealed with back into DATA_DIR ${dataDir} \\(or set CREDENTIALS_KEY to its content\\), then start again\\.`,
      ),
    );
    for (const message of [withEnv!, fromFile!]) {
      for (const key of [lost, current]) expect(message).not.toContain(key.toBase64());
    }
  });
});

describe('the start-up check and webhook secrets', () => {
  it('counts webhook secrets, current and previous: refused on PostgreSQL without the key, and when sealed with a key it lacks', async () => {
    const [lost, current] = [CredentialsKey.random(), CredentialsKey.random()];
    await addWebhook(createVault(current), createVault(lost));
    const noKey = { ...fileSettings(tempDir('hooks-postgres')), databaseUrl: 'postgres://db/crm' };
    expect(await sealedSecretsProblem(database.db, loadCredentialsVault(noKey), noKey)).toMatch(
      /^The database holds 2 webhook signing secrets, sealed with key [0-9a-f]+, [0-9a-f]+, and CREDENTIALS_KEY is not set\./,
    );
    const both = { ...fileSettings(tempDir('hooks-both')), credentialsKey: current, credentialsKeyPrevious: lost };
    expect(await sealedSecretsProblem(database.db, loadCredentialsVault(both), both)).toBeUndefined();
    const withEnv = { ...fileSettings(tempDir('hooks-env')), credentialsKey: current };
    await connect(createVault(current));
    expect(await sealedSecretsProblem(database.db, loadCredentialsVault(withEnv), withEnv)).toBe(
      `1 webhook signing secret (of 1 connected calendar and 2 webhook signing secrets) was sealed with a key this server does not have (key ${lost.id}). Set CREDENTIALS_KEY to the key it was sealed with (or keep that key as CREDENTIALS_KEY_PREVIOUS until rotate-credentials-key has run), then start again. If that key is lost, npm run admin -- rotate-credentials-key --forget-unreadable removes it, and an owner adds that webhook endpoint again, with a new secret.`,
    );
  });
});

describe('rotate-credentials-key with the key file', () => {
  it('seals every calendar with a new key that alone opens them, keeping the old key as credentials.key.previous', async () => {
    const dataDir = tempDir('rotate-file');
    const oldVault = usable(loadCredentialsVault(fileSettings(dataDir)));
    const old = keyIn(dataDir, KEY_FILE);
    const ids = [await connect(oldVault), await connect(oldVault)];

    const output = await rotateCredentialsKey(database.db, fileSettings(dataDir));
    const fresh = keyIn(dataDir, KEY_FILE);
    expect(fresh.id).not.toBe(old.id);
    expect(output).toBe(
      `Resealed 2 of 2 calendar passwords, with a new key (key ${fresh.id}) in ${path.join(dataDir, KEY_FILE)}.\n` +
        'The old key is kept as credentials.key.previous beside it, for backups taken before now; a backup restores its calendars only with the key it was taken under.\n',
    );
    expect(readdirSync(dataDir).sort()).toEqual([KEY_FILE, PREVIOUS_KEY_FILE]);
    expect(keyIn(dataDir, PREVIOUS_KEY_FILE).id).toBe(old.id);
    for (const name of [KEY_FILE, PREVIOUS_KEY_FILE]) expect(statSync(path.join(dataDir, name)).mode & 0o777).toBe(0o600);
    for (const id of ids) {
      expect(await opens(createVault(fresh), id)).toBe(true);
      expect(await opens(createVault(old), id)).toBe(false);
      expect((await secretOf(id))!.split('.')[1]).toBe(fresh.id);
    }
    // The server's next start finds nothing missing.
    expect(await sealedSecretsProblem(database.db, loadCredentialsVault(fileSettings(dataDir)), fileSettings(dataDir))).toBeUndefined();
  });

  it('loses nothing when stopped after any step, and a run after a stop finishes the rotation', async () => {
    const dataDir = tempDir('rotate-crash');
    const file = (name: string) => path.join(dataDir, name);
    usable(loadCredentialsVault(fileSettings(dataDir))); // the server's first start writes the key file
    const a = keyIn(dataDir, KEY_FILE);
    const id = await connect(createVault(a));
    /** What a server started now would load and find. */
    const afterRestart = async () => {
      const vault = loadCredentialsVault(fileSettings(dataDir));
      return { opens: await opens(vault, id), problem: await sealedSecretsProblem(database.db, vault, fileSettings(dataDir)) };
    };
    const fine = { opens: true, problem: undefined };

    // Stopped once the new key is written: nothing is sealed with it yet.
    const b = prepareNextKey(dataDir);
    expect(statSync(file(NEXT_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(await afterRestart()).toEqual(fine);
    expect(keyIn(dataDir, KEY_FILE).id).toBe(a.id);
    expect(prepareNextKey(dataDir).id).toBe(b.id);

    // Stopped after the transaction: every row sealed with .next, no file renamed.
    expect(await resealSecrets(database.db, createVault(b, [a]))).toEqual({
      total: 1,
      resealed: 1,
      forgotten: 0,
      webhooks: { total: 0, resealed: 0, forgotten: 0 },
    });
    expect(await afterRestart()).toEqual(fine);

    // Stopped between the renames: the key is .previous, .next not yet the key. The next load finishes it.
    renameSync(file(KEY_FILE), file(PREVIOUS_KEY_FILE));
    expect(await afterRestart()).toEqual(fine);
    expect(readdirSync(dataDir).sort()).toEqual([KEY_FILE, PREVIOUS_KEY_FILE]);
    expect(keyIn(dataDir, KEY_FILE).id).toBe(b.id);
    expect(await opens(createVault(b), id)).toBe(true);

    // Stopped after the transaction again, then the command run once more: it takes up the same new key.
    const c = prepareNextKey(dataDir);
    await resealSecrets(database.db, createVault(c, [b, a]));
    expect(await afterRestart()).toEqual(fine);
    expect(await rotateCredentialsKey(database.db, fileSettings(dataDir))).toMatch(
      new RegExp(`^Resealed 0 of 1 calendar password \\(1 had this key already\\), with a new key \\(key ${c.id}\\)`),
    );
    expect(readdirSync(dataDir).sort()).toEqual([KEY_FILE, PREVIOUS_KEY_FILE]);
    expect([keyIn(dataDir, KEY_FILE).id, keyIn(dataDir, PREVIOUS_KEY_FILE).id]).toEqual([c.id, b.id]);
    expect(await opens(createVault(c), id)).toBe(true);
    for (const old of [a, b]) expect(await opens(createVault(old), id)).toBe(false);
    expect(await afterRestart()).toEqual(fine);
  });

  it('changes nothing when a calendar opens with no key it has, and with --forget-unreadable removes that one', async () => {
    const dataDir = tempDir('rotate-unreadable');
    const vault = usable(loadCredentialsVault(fileSettings(dataDir)));
    const kept = await connect(vault);
    const lost = await connect(createVault(CredentialsKey.random()));
    const before = [await secretOf(kept), await secretOf(lost)];
    await expect(rotateCredentialsKey(database.db, fileSettings(dataDir))).rejects.toThrow(
      /^1 connected calendar cannot be opened with any key this server has \(sealed with key [0-9a-f]{8}\); nothing was changed\. Put that key back, or run npm run admin -- rotate-credentials-key --forget-unreadable to remove it \(its owner connects it again\)\.$/,
    );
    expect([await secretOf(kept), await secretOf(lost)]).toEqual(before);
    expect(await opens(vault, kept)).toBe(true);

    const output = await rotateCredentialsKey(database.db, fileSettings(dataDir), { forgetUnreadable: true });
    expect(output).toMatch(
      /^Resealed 1 of 2 calendar passwords; removed 1 connected calendar that no key opened \(its owner connects it again\), with a new key/,
    );
    expect(await secretOf(lost)).toBeUndefined();
    expect(await opens(createVault(keyIn(dataDir, KEY_FILE)), kept)).toBe(true);
  });
});

describe('rotate-credentials-key and webhook secrets', () => {
  it('reseals every endpoint’s secret and previous secret with the new key, which alone opens them', async () => {
    const dataDir = tempDir('rotate-hooks');
    const vault = usable(loadCredentialsVault(fileSettings(dataDir)));
    const old = keyIn(dataDir, KEY_FILE);
    const calendar = await connect(vault);
    const rotated = await addWebhook(vault, vault);
    const plain = await addWebhook(vault);
    expect(await rotateCredentialsKey(database.db, fileSettings(dataDir))).toMatch(
      /^Resealed 1 of 1 calendar password; resealed 3 of 3 webhook signing secrets, with a new key \(key [0-9a-f]+\)/,
    );
    const fresh = keyIn(dataDir, KEY_FILE);
    expect(fresh.id).not.toBe(old.id);
    expect(await opensHook(createVault(fresh), rotated)).toEqual([true, true]);
    expect(await opensHook(createVault(fresh), plain)).toEqual([true, null]);
    expect(await opensHook(createVault(old), rotated)).toEqual([false, false]);
    expect(await opens(createVault(fresh), calendar)).toBe(true);
    expect((await hookSecretsOf(rotated))!.secret.split('.')[1]).toBe(fresh.id);
    expect(await sealedSecretsProblem(database.db, loadCredentialsVault(fileSettings(dataDir)), fileSettings(dataDir))).toBeUndefined();
  });

  it('changes nothing when a webhook secret opens with no key; --forget-unreadable removes that endpoint, or drops only a previous secret', async () => {
    const dataDir = tempDir('rotate-hooks-lost');
    const vault = usable(loadCredentialsVault(fileSettings(dataDir)));
    const gone = createVault(CredentialsKey.random());
    const kept = await addWebhook(vault);
    const lostEndpoint = await addWebhook(gone);
    const lostPrevious = await addWebhook(vault, gone);
    const before = [await hookSecretsOf(kept), await hookSecretsOf(lostEndpoint), await hookSecretsOf(lostPrevious)];
    await expect(rotateCredentialsKey(database.db, fileSettings(dataDir))).rejects.toThrow(
      /^2 webhook signing secrets cannot be opened with any key this server has \(sealed with key [0-9a-f]+\); nothing was changed\./,
    );
    expect([await hookSecretsOf(kept), await hookSecretsOf(lostEndpoint), await hookSecretsOf(lostPrevious)]).toEqual(before);

    const output = await rotateCredentialsKey(database.db, fileSettings(dataDir), { forgetUnreadable: true });
    expect(output).toMatch(
      /^Resealed 2 of 4 webhook signing secrets; dropped 2 webhook signing secrets that no key opened \(an owner adds those webhook endpoints again, with a new secret\), with a new key/,
    );
    const fresh = createVault(keyIn(dataDir, KEY_FILE));
    expect(await hookSecretsOf(lostEndpoint)).toBeUndefined();
    expect(await opensHook(fresh, kept)).toEqual([true, null]);
    expect(await opensHook(fresh, lostPrevious)).toEqual([true, null]);
  });
});

describe('rotate-credentials-key with CREDENTIALS_KEY', () => {
  it('seals everything with CREDENTIALS_KEY, opening with CREDENTIALS_KEY_PREVIOUS, and writes no key file', async () => {
    const dataDir = tempDir('rotate-env');
    const [old, fresh] = [CredentialsKey.random(), CredentialsKey.random()];
    const ids = [await connect(createVault(old)), await connect(createVault(fresh))];
    const settings = { ...fileSettings(dataDir), databaseUrl: 'postgres://db/crm', credentialsKey: fresh, credentialsKeyPrevious: old };
    expect(await rotateCredentialsKey(database.db, settings)).toBe(
      `Resealed 1 of 2 calendar passwords (1 had this key already), with the key in CREDENTIALS_KEY (key ${fresh.id}). Now restart every server process without CREDENTIALS_KEY_PREVIOUS.\n`,
    );
    for (const id of ids) {
      expect(await opens(createVault(fresh), id)).toBe(true);
      expect(await opens(createVault(old), id)).toBe(false);
    }
    expect(readdirSync(dataDir)).toEqual([]);
    const withoutPrevious = { ...settings, credentialsKeyPrevious: undefined };
    expect(await sealedSecretsProblem(database.db, loadCredentialsVault(withoutPrevious), withoutPrevious)).toBeUndefined();
    expect(await rotateCredentialsKey(database.db, withoutPrevious)).toBe(
      `Resealed 0 of 2 calendar passwords (2 had this key already), with the key in CREDENTIALS_KEY (key ${fresh.id}). CREDENTIALS_KEY_PREVIOUS is not set: nothing else to do.\n`,
    );
  });

  it('refuses PostgreSQL without CREDENTIALS_KEY, saying what to set', async () => {
    const settings = { ...fileSettings(tempDir('rotate-nokey')), databaseUrl: 'postgres://db/crm' };
    await expect(rotateCredentialsKey(database.db, settings)).rejects.toThrow(/^Connecting calendars needs CREDENTIALS_KEY/);
  });
});

describe('db:move', () => {
  it('reminds that the key does not move with the calendars, and says nothing when none moved', () => {
    expect(movedSecretsReminder({ to: 'postgres', dataDir: '/srv/crm/data' }, 0, { credentialsKey: undefined })).toBeUndefined();
    expect(movedSecretsReminder({ to: 'postgres', dataDir: '/srv/crm/data' }, 3, { credentialsKey: undefined })).toBe(
      "3 connected calendars moved with their passwords sealed by a key that is not in the database. Start every server process with CREDENTIALS_KEY set to the key file's content, e.g. CREDENTIALS_KEY=$(cat /srv/crm/data/credentials.key) npm start (or that value in the service's environment file); without it the server refuses to start.\n",
    );
    expect(movedSecretsReminder({ to: 'postgres', dataDir: '/srv/crm/data' }, 1, { credentialsKey: CredentialsKey.random() })).toBe(
      '1 connected calendar moved with its password sealed by a key that is not in the database. Start every server process with the same CREDENTIALS_KEY as this command had, or the server refuses to start.\n',
    );
    expect(movedSecretsReminder({ to: 'embedded', dataDir: '/srv/crm/copy' }, 2, { credentialsKey: undefined })).toContain(
      `printf '%s\\n' "$CREDENTIALS_KEY" > /srv/crm/copy/credentials.key`,
    );
  });
});
