import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, readdirSync, renameSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, retryOnTakenPort, tempDir, keepOutput } from './process.ts';

/**
 * Dovecot (Debian's `dovecot-imapd`), a real IMAP server on this machine's loopback, for the
 * tests of reading replies. A throwaway configuration in a temporary directory: plain IMAP on
 * 127.0.0.1 (no TLS), users and plain passwords in a file (test users only), one Maildir per
 * user. Mail is delivered as a local delivery agent would: a file written into the user's
 * `Maildir/new`, which Dovecot picks up on its next look.
 *
 * Started as root (CI, containers), Dovecot runs its processes as the package's `dovecot` and
 * `dovenull` users and the mail belongs to `dovecot`; started as anyone else, everything runs
 * as that user.
 */

export const DOVECOT = '/usr/sbin/dovecot';
export const hasDovecot = existsSync(DOVECOT);

export type DovecotUser = { name: string; password: string };

export type Dovecot = {
  host: '127.0.0.1';
  port: number;
  users: DovecotUser[];
  /** imap://user:password@127.0.0.1:<port>/INBOX (imaps:// with `tls`), as IMAP_URL spells it. */
  urlOf: (user: string) => string;
  /** With `tls`: the path of its self-signed certificate (PEM), for IMAP_TLS_CA. */
  certificateFile?: string;
  /** Puts `raw` (a whole message, CRLF or LF line ends) into the user's INBOX, received at `receivedAt` (now); answers its file name. */
  deliver: (user: string, raw: string | Buffer, receivedAt?: Date) => string;
  /** Dovecot's own log so far (for a failing test's message). */
  output: () => string;
  stop: () => Promise<void>;
};

/** A running Dovecot with `userNames` as its users, each with a new random password. */
export function startDovecot(userNames: string[] = ['replies'], { tls = false }: { tls?: boolean } = {}): Promise<Dovecot> {
  const users = userNames.map((name) => ({ name, password: randomBytes(12).toString('hex') }));
  const dir = tempDir('dovecot');
  return retryOnTakenPort(() => startOnce(dir, users, tls ? selfSignedCertificate(dir) : undefined));
}

/** A self-signed certificate for 127.0.0.1 (openssl), its key beside it: TLS from the first byte (imaps://). */
function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'pipe' },
  );
  return { cert, key };
}

/** Who the mail belongs to and who Dovecot's unprivileged processes run as. */
function identities() {
  const me = os.userInfo();
  if (me.uid !== 0) return { mail: { uid: me.uid, gid: me.gid }, internal: me.username, group: groupName(me.gid), login: me.username };
  // The package's own user (its line in /etc/passwd: name:x:uid:gid:...).
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('dovecot:'));
  if (!entry) throw new Error('No dovecot user: install Debian’s dovecot-imapd');
  const [, , uid, gid] = entry.split(':');
  return { mail: { uid: Number(uid), gid: Number(gid) }, internal: 'dovecot', group: groupName(Number(gid)), login: 'dovenull' };
}

async function startOnce(dir: string, users: DovecotUser[], tls?: { cert: string; key: string }): Promise<Dovecot> {
  const port = await freePort();
  const who = identities();
  const home = (user: string) => path.join(dir, 'home', user);
  for (const sub of ['run', 'state', 'home']) mkdirSync(path.join(dir, sub), { recursive: true });
  for (const u of users) {
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(path.join(home(u.name), 'Maildir', sub), { recursive: true });
  }
  writeFileSync(path.join(dir, 'users'), users.map((u) => `${u.name}:{PLAIN}${u.password}\n`).join(''));
  const logFile = path.join(dir, 'dovecot.log');
  const configFile = path.join(dir, 'dovecot.conf');
  writeFileSync(
    configFile,
    [
      `base_dir = ${path.join(dir, 'run')}`,
      `state_dir = ${path.join(dir, 'state')}`,
      `log_path = ${logFile}`,
      'protocols = imap',
      'listen = 127.0.0.1',
      ...(tls ? ['ssl = required', `ssl_cert = <${tls.cert}`, `ssl_key = <${tls.key}`] : ['ssl = no']),
      // Plain passwords over a connection without TLS: loopback only, test users only.
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      // No pause after a refused password: the tests refuse one on purpose.
      'auth_failure_delay = 0',
      `default_internal_user = ${who.internal}`,
      `default_internal_group = ${who.group}`,
      `default_login_user = ${who.login}`,
      `first_valid_uid = ${who.mail.uid}`,
      `last_valid_uid = ${who.mail.uid}`,
      `first_valid_gid = ${who.mail.gid}`,
      'mail_location = maildir:~/Maildir',
      'passdb {',
      '  driver = passwd-file',
      `  args = scheme=PLAIN username_format=%u ${path.join(dir, 'users')}`,
      '}',
      'userdb {',
      '  driver = static',
      `  args = uid=${who.mail.uid} gid=${who.mail.gid} home=${path.join(dir, 'home')}/%u`,
      '}',
      'service imap-login {',
      '  inet_listener imap {',
      '    address = 127.0.0.1',
      `    port = ${tls ? 0 : port}`,
      '  }',
      '  inet_listener imaps {',
      '    address = 127.0.0.1',
      `    port = ${tls ? port : 0}`,
      ...(tls ? ['    ssl = yes'] : []),
      '  }',
      '}',
      // No stats or anvil sockets outside base_dir, and nothing listening but IMAP.
      'service stats {',
      '  unix_listener stats-reader {',
      '    mode = 0600',
      '  }',
      '  unix_listener stats-writer {',
      '    mode = 0666',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  if (os.userInfo().uid === 0) {
    // Dovecot's auth and mail processes run as `dovecot`: they pass through the directory and
    // read the users file and the Maildirs, nothing else of it.
    chmodSync(dir, 0o711);
    chownSync(path.join(dir, 'users'), who.mail.uid, who.mail.gid);
    chownTree(path.join(dir, 'home'), who.mail.uid, who.mail.gid);
  }

  // -F: in the foreground, so the child is Dovecot's master and stopping it stops them all.
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { output: early, exited } = keepOutput(child, 20_000);
  const output = () => `${early()}${existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-50_000) : ''}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForListener(port, exited, output);
  } catch (error) {
    await stop();
    throw error;
  }
  let delivered = 0;
  return {
    host: '127.0.0.1',
    port,
    users,
    urlOf(user) {
      const u = users.find((x) => x.name === user);
      if (!u) throw new Error(`No Dovecot user ${user}`);
      return `${tls ? 'imaps' : 'imap'}://${encodeURIComponent(u.name)}:${encodeURIComponent(u.password)}@127.0.0.1:${port}/INBOX`;
    },
    ...(tls ? { certificateFile: tls.cert } : {}),
    deliver(user, raw, receivedAt) {
      if (!users.some((u) => u.name === user)) throw new Error(`No Dovecot user ${user}`);
      // Dovecot gives new mail its UIDs in the order of these names: zero-padded, they sort as delivered.
      const name = `${String(Date.now()).padStart(15, '0')}.${process.pid}_${String(++delivered).padStart(9, '0')}.${os.hostname()}`;
      const maildir = path.join(home(user), 'Maildir');
      const text = typeof raw === 'string' ? raw.replace(/\r?\n/g, '\n') : raw;
      // As a delivery agent does: written in tmp, then moved into new in one step.
      const tmp = path.join(maildir, 'tmp', name);
      writeFileSync(tmp, text);
      // Dovecot takes a Maildir message's received date (IMAP INTERNALDATE) from its file's time.
      if (receivedAt) utimesSync(tmp, receivedAt, receivedAt);
      if (os.userInfo().uid === 0) chownSync(tmp, who.mail.uid, who.mail.gid);
      renameSync(tmp, path.join(maildir, 'new', name));
      return name;
    },
    output,
    stop,
  };
}

function groupName(gid: number): string {
  const line = readFileSync('/etc/group', 'utf8')
    .split('\n')
    .find((l) => l.split(':')[2] === String(gid));
  return line?.split(':')[0] ?? String(gid);
}

function chownTree(root: string, uid: number, gid: number) {
  chownSync(root, uid, gid);
  for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) chownSync(path.join(root, entry), uid, gid);
}

/** Resolves once something accepts connections on the port; rejects if Dovecot exits first or after 15 s. */
async function waitForListener(port: number, exited: Promise<number | null>, output: () => string): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (gone) {
      const log = output();
      throw new Error(`Dovecot exited before listening${/Address already in use/i.test(log) ? ' (EADDRINUSE)' : ''}:\n${log}`);
    }
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Dovecot did not listen on ${port} within 15 s:\n${output()}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
