import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { isCredentialsKeyFile } from '../../lib/credentials-key-file.ts';
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
  const archive = privateTarModes(withoutKeyFiles(new Uint8Array(await tar!.arrayBuffer())));
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
  const text = new TextDecoder('latin1');
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break; // end of archive
    const field = (start: number, length: number) => text.decode(header.subarray(start, start + length)).replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new Error('the archive is damaged');
    const end = offset + 512 + Math.ceil(size / 512) * 512;
    const name = field(0, 100).replace(/^\/+/, '');
    // Only DATA_DIR's own: at the top (no ustar prefix, no directory in the name).
    const keyFile = field(345, 155) === '' && !name.includes('/') && isCredentialsKeyFile(name);
    if (!keyFile) kept.push(tar.subarray(offset, end));
    offset = end;
  }
  kept.push(tar.subarray(offset)); // the end-of-archive blocks
  return Buffer.concat(kept);
}
