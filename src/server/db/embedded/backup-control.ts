import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import type { Logger } from 'pino';

/**
 * The running server's backup channel: a Unix socket file beside DATA_DIR (not inside it:
 * PGlite's dump reads every file in the data directory and fails on a socket). Only its
 * owner (and root) can connect: the socket is created with mode 0600, and a client checks
 * who owns it before trusting what it sends. Nothing listens on the network.
 *
 * Protocol: the client sends one line.
 * - `backup`: the server answers one JSON line `{"ok":true,"bytes":N}` followed by N bytes of
 *   backup, or `{"ok":false,"error":"..."}`.
 * - `admin <JSON>`: an `npm run admin` command run by the server on its own database (the
 *   embedded one has room for one process); the answer is one JSON line
 *   `{"ok":true,"output":"..."}` or `{"ok":false,"error":"..."}`.
 */
export const backupSocketPath = (dataDir: string) => `${dataDir}.backup.sock`;

const REQUEST = 'backup\n';
const MAX_REQUEST_BYTES = 64 * 1024;

/** Runs an admin command the CLI sent; resolves to what the command prints, or throws its error. */
export type AdminCommandHandler = (request: unknown) => Promise<string>;

function isSocket(file: string): boolean | undefined {
  try {
    return lstatSync(file).isSocket();
  } catch {
    return undefined; // not there
  }
}

/** Serves backups until the returned function is called. The caller holds DATA_DIR's lock. */
export async function serveBackups(
  socketPath: string,
  snapshot: () => Promise<Uint8Array>,
  logger: Logger,
  admin?: AdminCommandHandler,
): Promise<() => Promise<void>> {
  const existing = isSocket(socketPath);
  if (existing === false) throw new Error(`${socketPath} exists and is not a socket; online backups are off`);
  // A socket left by a server that was killed: ours now, since we hold DATA_DIR's lock.
  if (existing) unlinkSync(socketPath);

  let queue: Promise<unknown> = Promise.resolve();
  const server = net.createServer((socket) => {
    socket.setTimeout(10_000, () => socket.destroy());
    let request = '';
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      request += chunk.toString('utf8');
      const newline = request.indexOf('\n');
      if (newline < 0) {
        if (request.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.removeAllListeners('data');
      socket.setTimeout(0);
      const line = request.slice(0, newline);
      if (line.startsWith('admin ') && admin) {
        const answer = (async () => {
          try {
            return { ok: true, output: await admin(JSON.parse(line.slice(6)) as unknown) };
          } catch (err) {
            return { ok: false, error: err instanceof Error ? err.message : String(err) };
          }
        })();
        void answer.then((a) => socket.end(`${JSON.stringify(a)}\n`));
        return;
      }
      if (`${line}\n` !== REQUEST) {
        socket.end(`${JSON.stringify({ ok: false, error: 'unknown request' })}\n`);
        return;
      }
      // One backup at a time; each waits its turn behind the app's own queries.
      const job = queue.then(async () => {
        const started = Date.now();
        try {
          const bytes = await snapshot();
          socket.write(`${JSON.stringify({ ok: true, bytes: bytes.length })}\n`);
          socket.end(bytes);
          logger.info({ event: 'backup_served', bytes: bytes.length, ms: Date.now() - started }, 'wrote a backup for npm run backup');
        } catch (err) {
          logger.error({ err }, 'backup failed');
          socket.end(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`);
        }
      });
      queue = job;
    });
  });

  // The socket file is created by listen(): a umask makes it 0600 from its first moment.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(socketPath, 0o600);
  server.unref();

  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await queue;
    if (isSocket(socketPath)) unlinkSync(socketPath);
  };
}

/** The socket is there and belongs to whoever runs this command (or root runs it); throws otherwise. */
function checkSocketOwner(socketPath: string): void {
  let owner: number;
  try {
    const stat = lstatSync(socketPath);
    if (!stat.isSocket()) throw new NoBackupServerError(`${socketPath} is not a socket`);
    owner = stat.uid;
  } catch (err) {
    if (err instanceof NoBackupServerError) throw err;
    throw new NoBackupServerError(`no control socket at ${socketPath}`);
  }
  const me = process.getuid?.();
  if (me !== undefined && me !== 0 && owner !== me) {
    throw new Error(`${socketPath} belongs to another user (uid ${owner}): run the command as the user running the server`);
  }
}

/** Thrown when no server answers on the socket; the caller may then open DATA_DIR itself. */
export class NoBackupServerError extends Error {}

/** Asks the server running on DATA_DIR for a backup; resolves to its bytes. */
export async function requestBackup(socketPath: string): Promise<Uint8Array> {
  checkSocketOwner(socketPath);
  return new Promise<Uint8Array>((resolve, reject) => {
    const socket = net.connect(socketPath);
    const chunks: Buffer[] = [];
    let received = 0;
    socket.on('connect', () => socket.write(REQUEST));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? new NoBackupServerError(`no server answers on ${socketPath}`) : err);
    });
    socket.on('end', () => {
      const all = Buffer.concat(chunks, received);
      const newline = all.indexOf(10);
      if (newline < 0) return reject(new Error('the server closed the connection without an answer'));
      const header = JSON.parse(all.subarray(0, newline).toString('utf8')) as { ok: boolean; bytes?: number; error?: string };
      if (!header.ok) return reject(new Error(`the server could not make the backup: ${header.error}`));
      const body = all.subarray(newline + 1);
      if (body.length !== header.bytes) {
        return reject(new Error(`the backup was cut short (${body.length} of ${header.bytes} bytes)`));
      }
      resolve(new Uint8Array(body.buffer, body.byteOffset, body.length));
    });
  });
}

/** Sends an admin command to the server running on DATA_DIR; resolves to what it printed. */
export async function requestAdminCommand(socketPath: string, request: unknown): Promise<string> {
  checkSocketOwner(socketPath);
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answer = '';
    socket.on('connect', () => socket.write(`admin ${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? new NoBackupServerError(`no server answers on ${socketPath}`) : err);
    });
    socket.on('end', () => {
      try {
        const parsed = JSON.parse(answer) as { ok: boolean; output?: string; error?: string };
        if (parsed.ok) resolve(parsed.output ?? '');
        else reject(new Error(parsed.error ?? 'the server refused the command'));
      } catch {
        reject(new Error('the server closed the connection without an answer'));
      }
    });
  });
}
