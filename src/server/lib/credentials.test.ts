import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { tempDir } from '../test/process.ts';
import { KEY_FILE, NEXT_KEY_FILE, PREVIOUS_KEY_FILE, isCredentialsKeyFile } from './credentials-key-file.ts';
import { CREDENTIALS_KEY_FORMAT, CredentialsKey, parseCredentialsKey } from './credentials-key.ts';
import {
  createVault,
  loadCredentialsVault,
  NEEDS_CREDENTIALS_KEY,
  needsResealing,
  SealedSecretError,
  type CredentialsSettings,
  type CredentialsVault,
} from './credentials.ts';

const SECRET = 'https://calendar.example.com/private-3f9a1c/basic.ics';
const CONTEXT = 'calendar_connections:6d0b2f4e-0000-4000-8000-000000000001';

function opened(vault: CredentialsVault) {
  if (!vault.available) throw new Error(`expected a vault: ${vault.reason}`);
  return vault;
}

const embedded = (dataDir: string, more: Partial<CredentialsSettings> = {}): CredentialsSettings => ({
  credentialsKey: undefined,
  credentialsKeyPrevious: undefined,
  dataDir,
  databaseUrl: undefined,
  ...more,
});

const keyOf = (file: string) => parseCredentialsKey(readFileSync(file, 'utf8')) as CredentialsKey;

describe('sealing and opening', () => {
  const key = CredentialsKey.random();
  const vault = opened(createVault(key));

  it('seals as v1.<key id>.<iv>.<ciphertext and tag> in base64url, with a fresh IV each time, and opens it again', () => {
    const sealed = vault.seal(SECRET, CONTEXT);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed.split('.')[1]).toBe(key.id);
    expect(vault.seal(SECRET, CONTEXT)).not.toBe(sealed);
    expect(vault.open(sealed, CONTEXT)).toBe(SECRET);
    expect(vault.keyIds()).toEqual([key.id]);
    // Neither the secret nor the key shows in what is stored.
    for (const shown of [SECRET, 'private-3f9a1c', key.toBase64(), key.bytes().toString('hex'), key.bytes().toString('base64url')])
      expect(sealed).not.toContain(shown);
    // Any text survives, a CalDAV account's JSON with non-ASCII characters included.
    const account = JSON.stringify({ url: 'https://dav.example.com/', username: 'zoë', password: 'pässwörd 🔑' });
    expect(vault.open(vault.seal(account, CONTEXT), CONTEXT)).toBe(account);
  });

  it('does not open a secret copied to another row, changed, sealed with an unknown key or damaged, and says so without secret material', () => {
    const sealed = vault.seal(SECRET, CONTEXT);
    const [version, id, iv, body] = sealed.split('.') as [string, string, string, string];
    const flipped = `${body.slice(0, 5)}${body[5] === 'A' ? 'B' : 'A'}${body.slice(6)}`;
    const stranger = opened(createVault(CredentialsKey.random()));
    const attempts: [string, () => string, RegExp][] = [
      ['another row', () => vault.open(sealed, 'calendar_connections:another-row'), /does not open with its key/],
      ['a changed body', () => vault.open([version, id, iv, flipped].join('.'), CONTEXT), /does not open with its key/],
      ['a changed IV', () => vault.open([version, id, body.slice(0, 16), body].join('.'), CONTEXT), /does not open with its key/],
      ['an unknown key', () => stranger.open(sealed, CONTEXT), new RegExp(`key this server does not have \\(key ${id}\\)`)],
      ['a key id changed', () => vault.open([version, '00000000', iv, body].join('.'), CONTEXT), /does not have \(key 00000000\)/],
      ['plain text', () => vault.open(SECRET, CONTEXT), /damaged/],
      ['another version', () => vault.open(['v2', id, iv, body].join('.'), CONTEXT), /damaged/],
      ['a cut body', () => vault.open([version, id, iv, 'AAAA'].join('.'), CONTEXT), /damaged/],
    ];
    for (const [what, attempt, message] of attempts) {
      let error: unknown;
      try {
        attempt();
      } catch (err) {
        error = err;
      }
      expect({ what, error }).toEqual({ what, error: expect.any(SealedSecretError) });
      const text = (error as Error).message;
      expect({ what, text }).toEqual({ what, text: expect.stringMatching(message) });
      for (const secret of [SECRET, key.toBase64(), iv, body])
        expect({ what, text }).toEqual({ what, text: expect.not.stringContaining(secret) });
    }
  });

  it('opens with a previous key, seals with the current one only, and tells what needs resealing', () => {
    const old = CredentialsKey.random();
    const before = opened(createVault(old)).seal(SECRET, CONTEXT);
    const rotated = opened(createVault(key, [old, key]));
    expect(rotated.keyIds()).toEqual([key.id, old.id]);
    expect(rotated.open(before, CONTEXT)).toBe(SECRET);
    expect(needsResealing(before, rotated)).toBe(true);
    const after = rotated.seal(SECRET, CONTEXT);
    expect(after.split('.')[1]).toBe(key.id);
    expect(needsResealing(after, rotated)).toBe(false);
    expect(needsResealing(before, { available: false, reason: 'no key' })).toBe(false);
  });
});

describe('the key', () => {
  const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7));

  it('is read from base64 (openssl rand -base64 32), base64url with or without padding, or 64 hex digits, as the same key', () => {
    const forms = [
      bytes.toString('base64'),
      ` ${bytes.toString('base64')}\n`,
      bytes.toString('base64url'),
      `${bytes.toString('base64url')}=`,
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
    ];
    for (const form of forms)
      expect({ form, id: (parseCredentialsKey(form) as CredentialsKey).id }).toEqual({ form, id: new CredentialsKey(bytes).id });
  });

  it('refuses anything else with how to make one, never repeating the value', () => {
    const refused = [
      'correct horse battery staple',
      bytes.subarray(0, 31).toString('base64'),
      Buffer.concat([bytes, Buffer.from([1])]).toString('base64'),
      bytes.toString('hex').slice(1),
      `${bytes.toString('base64').slice(0, 20)} ${bytes.toString('base64').slice(20)}`,
      `${bytes.toString('base64')}=`,
      '!'.repeat(44),
    ];
    for (const value of refused) expect({ value, parsed: parseCredentialsKey(value) }).toEqual({ value, parsed: CREDENTIALS_KEY_FORMAT });
    expect(CREDENTIALS_KEY_FORMAT).toContain('openssl rand -base64 32');
  });

  it('shows only its id when printed, logged or turned into JSON, and so does the configuration holding it', () => {
    const encoded = bytes.toString('base64');
    const config = parseConfig({ CREDENTIALS_KEY: encoded, CREDENTIALS_KEY_PREVIOUS: bytes.toString('hex') });
    const key = config.credentialsKey!;
    for (const shown of [String(key), JSON.stringify(key), inspect(key), JSON.stringify(config), inspect(config, { depth: 5 })]) {
      expect(shown).toContain(key.id);
      expect(shown).not.toContain(encoded);
      expect(shown).not.toContain(bytes.toString('hex'));
      expect(shown).not.toContain(bytes.toString('base64url'));
    }
  });
});

describe('loadCredentialsVault', () => {
  it('uses CREDENTIALS_KEY, opening with CREDENTIALS_KEY_PREVIOUS too, and makes no key file', () => {
    const dataDir = tempDir('credentials-env');
    const [current, previous] = [CredentialsKey.random(), CredentialsKey.random()];
    const vault = opened(loadCredentialsVault(embedded(dataDir, { credentialsKey: current, credentialsKeyPrevious: previous })));
    expect(vault.keyIds()).toEqual([current.id, previous.id]);
    expect(opened(loadCredentialsVault(embedded(dataDir, { credentialsKey: current, databaseUrl: 'postgres://db/crm' }))).keyIds()).toEqual(
      [current.id],
    );
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('with PostgreSQL and no CREDENTIALS_KEY is unavailable, saying what to set', () => {
    const dataDir = tempDir('credentials-postgres');
    for (const credentialsKeyPrevious of [undefined, CredentialsKey.random()])
      expect(loadCredentialsVault(embedded(dataDir, { databaseUrl: 'postgres://db/crm', credentialsKeyPrevious }))).toEqual({
        available: false,
        reason: 'Connecting calendars needs CREDENTIALS_KEY: set it to 32 random bytes (openssl rand -base64 32) on every server process.',
      });
    expect(NEEDS_CREDENTIALS_KEY).toContain('CREDENTIALS_KEY');
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('with the embedded database makes DATA_DIR/credentials.key once (0600, 32 random bytes in base64) and keeps using it', () => {
    const dataDir = tempDir('credentials-file');
    const first = opened(loadCredentialsVault(embedded(dataDir)));
    const file = path.join(dataDir, KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    expect(first.keyIds()).toEqual([keyOf(file).id]);
    const sealed = first.seal(SECRET, CONTEXT);
    const again = opened(loadCredentialsVault(embedded(dataDir)));
    expect(again.keyIds()).toEqual(first.keyIds());
    expect(again.open(sealed, CONTEXT)).toBe(SECRET);
    expect(readdirSync(dataDir)).toEqual([KEY_FILE]);
    // The key files alone are what backups leave out.
    expect([KEY_FILE, NEXT_KEY_FILE, PREVIOUS_KEY_FILE, `${KEY_FILE}.tmp-42`].every(isCredentialsKeyFile)).toBe(true);
    expect(['credentials.keys', 'PG_VERSION', 'my-credentials.key'].some(isCredentialsKeyFile)).toBe(false);
  });

  it('tightens a key file that others could read to 0600', () => {
    const dataDir = tempDir('credentials-loose');
    const key = CredentialsKey.random();
    const file = path.join(dataDir, KEY_FILE);
    writeFileSync(file, `${key.toBase64()}\n`);
    chmodSync(file, 0o644);
    expect(opened(loadCredentialsVault(embedded(dataDir))).keyIds()).toEqual([key.id]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('is unavailable, leaving the file as it is, when the key file does not hold a key', () => {
    const dataDir = tempDir('credentials-damaged');
    const file = path.join(dataDir, KEY_FILE);
    writeFileSync(file, 'not a key\n', { mode: 0o600 });
    const vault = loadCredentialsVault(embedded(dataDir));
    expect(vault).toEqual({ available: false, reason: expect.stringContaining(`${file} does not hold a credentials key`) });
    expect(readFileSync(file, 'utf8')).toBe('not a key\n');
  });

  it('opens with credentials.key.next and .previous too, finishes a rotation stopped between its renames, and removes half-written key files', () => {
    const dataDir = tempDir('credentials-rotation-files');
    const [previous, current, next] = [CredentialsKey.random(), CredentialsKey.random(), CredentialsKey.random()];
    const write = (name: string, key: CredentialsKey) => writeFileSync(path.join(dataDir, name), `${key.toBase64()}\n`, { mode: 0o600 });
    write(PREVIOUS_KEY_FILE, previous);
    write(KEY_FILE, current);
    write(NEXT_KEY_FILE, next);
    writeFileSync(path.join(dataDir, `${KEY_FILE}.tmp-99999`), 'half', { mode: 0o600 });
    expect(opened(loadCredentialsVault(embedded(dataDir))).keyIds()).toEqual([current.id, next.id, previous.id]);
    expect(existsSync(path.join(dataDir, `${KEY_FILE}.tmp-99999`))).toBe(false);

    // The key renamed to .previous, .next not yet to the key: .next is the key now.
    write(PREVIOUS_KEY_FILE, current);
    rmSync(path.join(dataDir, KEY_FILE));
    expect(opened(loadCredentialsVault(embedded(dataDir))).keyIds()).toEqual([next.id, current.id]);
    expect(readdirSync(dataDir).sort()).toEqual([KEY_FILE, PREVIOUS_KEY_FILE]);
    expect(keyOf(path.join(dataDir, KEY_FILE)).id).toBe(next.id);
  });
});
