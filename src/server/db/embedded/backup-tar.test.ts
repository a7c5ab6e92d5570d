import { describe, expect, it } from 'vitest';
import { tarChecksumOk, tarHeader, withTarEntry } from '../../test/tar-entries.ts';
import { relativeTarNames, tarEntries, unsafeTarEntry } from './backup-tar.ts';

const empty = new Uint8Array(1024);
const fileEntry = (name: string, text: string, prefix = '') => {
  const data = new TextEncoder().encode(text);
  return [tarHeader(name, '0', { size: data.length, prefix }), data] as const;
};
/** An archive as PGlite writes one: absolute names, a directory and two files. */
const pgliteLike = () =>
  [tarHeader('/base', '5'), ...[fileEntry('/PG_VERSION', '17\n'), fileEntry('/base/1/112', 'page')]].reduce<Uint8Array>(
    (tar, entry) => (entry instanceof Uint8Array ? withTarEntry(tar, entry) : withTarEntry(tar, entry[0], entry[1])),
    empty,
  );

describe('backup archives', () => {
  it('walks every entry with its name, type and data, up to the end-of-archive blocks', () => {
    const entries = [...tarEntries(pgliteLike())];
    expect(entries.map((e) => [e.name, e.type])).toEqual([
      ['/base', '5'],
      ['/PG_VERSION', '0'],
      ['/base/1/112', '0'],
    ]);
    const tar = pgliteLike();
    const version = [...tarEntries(tar)][1]!;
    expect(new TextDecoder().decode(tar.subarray(version.start + 512, version.start + 512 + 3))).toBe('17\n');
  });

  it('writes new backups with names relative to the data directory, each header still checking out', () => {
    const tar = relativeTarNames(pgliteLike());
    const entries = [...tarEntries(tar)];
    expect(entries.map((e) => e.name)).toEqual(['base', 'PG_VERSION', 'base/1/112']);
    for (const { header } of entries) expect(tarChecksumOk(header)).toBe(true);
    const [header, data] = fileEntry('x', '/y', '/deep/prefix');
    expect([...tarEntries(relativeTarNames(withTarEntry(empty, header, data)))][0]!.name).toBe('deep/prefix/x');
  });

  it('restores files and directories, in both the old (absolute) and new (relative) forms', () => {
    expect(unsafeTarEntry(pgliteLike())).toBeUndefined();
    expect(unsafeTarEntry(relativeTarNames(pgliteLike()))).toBeUndefined();
  });

  it('refuses links, devices, pipes, extensions, climbing out, and nameless or backslashed entries', () => {
    const refused: [Uint8Array, RegExp][] = [
      [tarHeader('base/evil', '2', { linkTo: '/etc/passwd' }), /not a file or a directory .*"base\/evil"/],
      [tarHeader('base/hard', '1', { linkTo: '/etc/shadow' }), /not a file or a directory/],
      [tarHeader('dev/tty', '3'), /not a file or a directory/],
      [tarHeader('dev/sda', '4'), /not a file or a directory/],
      [tarHeader('pipe', '6'), /not a file or a directory/],
      [tarHeader('PaxHeader', 'x', { size: 0 }), /not a file or a directory/],
      [tarHeader('../../etc/cron.d/job', '0'), /outside the data directory: "..\/..\/etc\/cron.d\/job"/],
      [tarHeader('/base/../../root', '0'), /outside the data directory/],
      [tarHeader('job', '0', { prefix: '../..' }), /outside the data directory: "..\/..\/job"/],
      [tarHeader('/', '5'), /no name/],
      [tarHeader('base\\..\\x', '0'), /backslash/],
    ];
    for (const [header, reason] of refused) expect(unsafeTarEntry(withTarEntry(pgliteLike(), header))).toMatch(reason);
  });

  it('calls an archive with a size field that is no number damaged', () => {
    const header = tarHeader('x', '0');
    header.set(new TextEncoder().encode('zzzzzzzzzzz\0'), 124);
    expect(() => [...tarEntries(withTarEntry(empty, header))]).toThrow('the archive is damaged');
  });
});
