import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { isCredentialsKeyFile } from '../../lib/credentials-key-file.ts';
import { privateTarModes } from './data-dir-modes.ts';
import { relativeTarNames, tarEntries } from './backup-tar.ts';

const gzipAsync = promisify(gzip);

/**
 * A consistent copy of an open PGlite's data directory, as a gzipped tarball that
 * `new PGlite({ loadDataDir })` opens.
 *
 * PGlite runs one statement at a time. `dumpDataDir()` alone waits only for the running
 * statement, so it could copy the files between two statements of an open transaction
 * (still consistent after crash recovery, but only just). Inside `transaction()` no other
 * transaction or query can start; CHECKPOINT writes every committed change into the data
 * files, then the tar is read synchronously. Compression runs after the lock is released,
 * so the app waits only for the checkpoint and the file copy.
 * https://pglite.dev/docs/api#dumpdatadir
 */
export async function snapshotPglite(client: PGlite): Promise<Uint8Array> {
  let tar: Blob | undefined;
  await client.transaction(async (tx) => {
    await tx.exec('checkpoint');
    tar = await client.dumpDataDir('none');
  });
  // The archive's entries say 0600 (0700 for directories), whatever the files' modes were, and
  // name their paths relative to the data directory, not from the root.
  const archive = relativeTarNames(privateTarModes(withoutKeyFiles(new Uint8Array(await tar!.arrayBuffer()))));
  // Level 1: much quicker than the default level for a file a little larger, and a backup the
  // running server takes competes with its requests for the CPU meanwhile
  // (docs/performance.md, "Measurements behind the code").
  return new Uint8Array(await gzipAsync(archive, { level: 1 }));
}

/**
 * The archive without DATA_DIR's credentials key files (PGlite archives every file in the
 * directory): a backup holds the calendars' passwords only sealed, and opens none of them
 * without the key kept apart from it (docs/security.md, "Stored credentials").
 */
export function withoutKeyFiles(tar: Uint8Array): Uint8Array {
  const kept: Uint8Array[] = [];
  let contentEnd = 0;
  for (const { header, name, start, end } of tarEntries(tar)) {
    contentEnd = end;
    // Only DATA_DIR's own: at the top (no ustar prefix, no directory in the name).
    const bare = name.replace(/^\/+/, '');
    if (!(header[345] === 0 && !bare.includes('/') && isCredentialsKeyFile(bare))) kept.push(tar.subarray(start, end));
  }
  kept.push(tar.subarray(contentEnd)); // the end-of-archive blocks
  return Buffer.concat(kept);
}
