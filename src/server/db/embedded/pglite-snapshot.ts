import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { privateTarModes } from './data-dir-modes.ts';

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
  // The archive's entries say 0600 (0700 for directories), whatever the files' modes were.
  return new Uint8Array(await gzipAsync(privateTarModes(new Uint8Array(await tar!.arrayBuffer())), { level: 6 }));
}
