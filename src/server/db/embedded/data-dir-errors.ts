import os from 'node:os';

/** A problem with DATA_DIR that the operator can fix: start-up prints its message as one line. */
export class DataDirError extends Error {}

// PGlite's file system (Emscripten) throws ErrnoError with WASI errno numbers and no message.
const EMSCRIPTEN_ERRNO: Record<number, string> = { 2: 'EACCES', 19: 'EDQUOT', 51: 'ENOSPC', 63: 'EPERM', 69: 'EROFS' };

function errnoCode(err: unknown): string | undefined {
  const { code, errno, name } = (err ?? {}) as { code?: unknown; errno?: unknown; name?: unknown };
  if (typeof code === 'string' && code.startsWith('E')) return code;
  if (name === 'ErrnoError' && typeof errno === 'number') return EMSCRIPTEN_ERRNO[errno];
  // PostgreSQL inside PGlite: could not extend or write a file (disk_full).
  if (code === '53100') return 'ENOSPC';
  return undefined;
}

/**
 * Turns a file-system failure while opening DATA_DIR into a one-line DataDirError that says
 * what to do; undefined for anything else (which start-up reports as it is).
 */
export function dataDirError(dataDir: string, err: unknown): DataDirError | undefined {
  switch (errnoCode(err)) {
    case 'EROFS':
      return new DataDirError(
        `DATA_DIR ${dataDir} is read-only: make it writable (or set DATA_DIR to a writable directory) and start again. Nothing was changed.`,
      );
    case 'EACCES':
    case 'EPERM':
      return new DataDirError(
        `DATA_DIR ${dataDir} is not writable by this user (uid ${process.getuid?.() ?? '?'} on ${os.hostname()}): fix its owner or permissions and start again.`,
      );
    case 'ENOSPC':
    case 'EDQUOT':
      return new DataDirError(
        `No space left on DATA_DIR ${dataDir}: free some space on its disk (or set DATA_DIR to a larger one) and start again.`,
      );
    default:
      return undefined;
  }
}
