import { sealTarHeader, tarContentEnd } from '../db/embedded/backup-tar.ts';

/** A ustar header for a test's hand-made archive entry: `type` '0' a file, '2' a symlink, '3' a device... */
export function tarHeader(name: string, type: string, { size = 0, prefix = '', linkTo = '' } = {}): Uint8Array {
  const header = new Uint8Array(512);
  const put = (text: string, at: number) => header.set(new TextEncoder().encode(text), at);
  put(name, 0);
  put('0000600\0', 100);
  put('0000000\0', 108);
  put('0000000\0', 116);
  put(`${size.toString(8).padStart(11, '0')}\0`, 124);
  put('00000000000\0', 136);
  header[156] = type.charCodeAt(0);
  put(linkTo, 157);
  put('ustar\0', 257);
  put('00', 263);
  put(prefix, 345);
  sealTarHeader(header);
  return header;
}

/** `tar` with one more entry (its header, then `data` padded to whole blocks) before its end-of-archive blocks. */
export function withTarEntry(tar: Uint8Array, header: Uint8Array, data = new Uint8Array(0)): Uint8Array {
  const end = tarContentEnd(tar);
  const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
  padded.set(data);
  return Buffer.concat([tar.subarray(0, end), header, padded, new Uint8Array(1024)]);
}

/** Whether a header's checksum is right (the sum of its bytes, the checksum field read as spaces). */
export function tarChecksumOk(header: Uint8Array): boolean {
  const stored = parseInt(new TextDecoder('latin1').decode(header.subarray(148, 156)).replace(/\0.*$/s, '').trim(), 8);
  const sum = header.reduce((total, b, i) => total + (i >= 148 && i < 156 ? 0x20 : b), 0);
  return stored === sum;
}
