/**
 * The tar archives inside backup files (ustar, as PGlite's `dumpDataDir()` writes them): one
 * walk over their entries, what a backup changes in them on the way out, and what a restore
 * refuses on the way in (docs/security.md, "Backups and restores").
 */

const BLOCK = 512;
const latin1 = new TextDecoder('latin1');

export type TarEntry = {
  /** The entry's 512-byte header, a view into the archive (writes change the archive). */
  header: Uint8Array;
  /** Its path as written, the ustar prefix joined in front when there is one. */
  name: string;
  /** Its typeflag: '0' (or NUL) a file, '5' a directory, anything else a link, device or extension. */
  type: string;
  /** Where the entry begins and where the next one does (its data padded to whole blocks). */
  start: number;
  end: number;
};

const field = (header: Uint8Array, start: number, length: number) =>
  latin1.decode(header.subarray(start, start + length)).replace(/\0.*$/s, '');

/** Every entry of `tar` up to its end-of-archive block; throws on a size field that is not a number. */
export function* tarEntries(tar: Uint8Array): Generator<TarEntry> {
  for (let start = 0; start + BLOCK <= tar.length; ) {
    const header = tar.subarray(start, start + BLOCK);
    if (header.every((b) => b === 0)) return; // end of archive
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new Error('the archive is damaged');
    const prefix = field(header, 257, 5) === 'ustar' ? field(header, 345, 155) : '';
    const name = field(header, 0, 100);
    const end = start + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    yield { header, name: prefix ? `${prefix}/${name}` : name, type: String.fromCharCode(header[156] ?? 0), start, end };
    start = end;
  }
}

/** Where the last entry of `tar` ends: its end-of-archive blocks (if any) begin there. */
export function tarContentEnd(tar: Uint8Array): number {
  let end = 0;
  for (const entry of tarEntries(tar)) end = entry.end;
  return end;
}

/** Writes a header's checksum again after a change (the checksum counts its own field as spaces). */
export function sealTarHeader(header: Uint8Array): void {
  header.fill(0x20, 148, 156);
  const sum = header.reduce((total, b) => total + b, 0);
  header.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
}

/**
 * Strips the leading `/` from every entry's name (PGlite writes `/base/1/112`), in place, and
 * returns `tar`: `tar -xPf` as root would otherwise write into `/base`. PGlite's `loadDataDir`
 * reads both forms alike (it joins each name to its data directory).
 */
export function relativeTarNames<T extends Uint8Array>(tar: T): T {
  for (const { header } of tarEntries(tar)) {
    for (const [start, length] of [
      [0, 100],
      [345, 155],
    ] as const) {
      const value = field(header, start, length);
      if (!value.startsWith('/')) continue;
      header.fill(0, start, start + length);
      header.set(new TextEncoder().encode(value.replace(/^\/+/, '')), start);
      sealTarHeader(header);
    }
  }
  return tar;
}

/**
 * Why `tar` cannot be restored into a data directory, or undefined when it can: every entry
 * must be a plain file or directory whose path stays inside the directory. Old backups'
 * absolute names (`/base/1/112`) count as relative to it, as PGlite reads them; `..`, links,
 * devices, pipes and tar extensions are refused, whatever PGlite would do with them.
 */
export function unsafeTarEntry(tar: Uint8Array): string | undefined {
  for (const { name, type } of tarEntries(tar)) {
    const shown = JSON.stringify(name.slice(0, 120));
    if (type !== '0' && type !== '\0' && type !== '5') return `an entry that is not a file or a directory (a link or a device): ${shown}`;
    const parts = name.replace(/^\/+/, '').split('/');
    if (parts.every((p) => p === '' || p === '.')) return `an entry with no name: ${shown}`;
    if (parts.includes('..')) return `an entry that would land outside the data directory: ${shown}`;
    if (name.includes('\\')) return `an entry with a backslash in its name: ${shown}`;
  }
  return undefined;
}
