import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { KEY_FILE, NEXT_KEY_FILE, PREVIOUS_KEY_FILE } from '../../lib/credentials-key-file.ts';
import { CredentialsKey } from '../../lib/credentials-key.ts';
import { tempDir } from '../../test/process.ts';
import { TEMPLATE_FILE } from '../../test/run-files.ts';
import { createPglite } from '../client.ts';
import { snapshotPglite } from './pglite-snapshot.ts';

/** The names in a tar archive, without a leading slash. */
function entryNames(tar: Buffer): string[] {
  const names: string[] = [];
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    names.push(header.toString('latin1', 0, 100).replace(/\0.*$/s, '').replace(/^\/+/, ''));
    offset += 512 + Math.ceil(parseInt(header.toString('latin1', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8) / 512) * 512;
  }
  return names;
}

it("leaves DATA_DIR's credentials key files out of a backup, which still opens with every row", async () => {
  const dataDir = tempDir('snapshot-keys');
  const client = createPglite({ dataDir, loadDataDir: new Blob([readFileSync(TEMPLATE_FILE)]) });
  await client.waitReady;
  const keys = [KEY_FILE, PREVIOUS_KEY_FILE, NEXT_KEY_FILE, `${KEY_FILE}.tmp-4242`].map((name) => {
    const key = CredentialsKey.random();
    writeFileSync(path.join(dataDir, name), `${key.toBase64()}\n`, { mode: 0o600 });
    return key.toBase64();
  });
  let tar: Buffer;
  try {
    await client.query(`insert into users (email, display_name, password_hash) values ('kept@example.com', 'Kept', 'x')`);
    tar = gunzipSync(await snapshotPglite(client));
  } finally {
    await client.close();
  }
  const names = entryNames(tar);
  expect(names).toContain('PG_VERSION');
  expect(names.filter((name) => name.startsWith('credentials'))).toEqual([]);
  for (const key of keys) expect(tar.includes(Buffer.from(key))).toBe(false);

  const restored = createPglite({ loadDataDir: new Blob([new Uint8Array(tar)]) });
  await restored.waitReady;
  try {
    expect((await restored.query<{ email: string }>('select email from users')).rows).toEqual([{ email: 'kept@example.com' }]);
  } finally {
    await restored.close();
  }
});
