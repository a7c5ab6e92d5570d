import { describe, expect, it } from 'vitest';
import { CsvError, guessDelimiter, parseCsv } from './csv.ts';

describe('parseCsv', () => {
  it('reads plain fields and records', () => {
    expect(parseCsv('Name,Email\nAda,ada@example.com\n')).toEqual([
      ['Name', 'Email'],
      ['Ada', 'ada@example.com'],
    ]);
  });

  it('accepts CRLF, LF and a lone CR between records, and a last record without a line break', () => {
    expect(parseCsv('a,b\r\nc,d\ne,f\rg,h')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('drops a byte order mark at the start only', () => {
    expect(parseCsv('\ufeffName,Email\r\nx,\ufeffy\r\n')).toEqual([
      ['Name', 'Email'],
      ['x', '\ufeffy'],
    ]);
  });

  it('reads quoted fields with delimiters, doubled quotes and line breaks inside', () => {
    expect(parseCsv('"Doe, Jane","She said ""hi""","line 1\r\nline 2\nline 3"\r\nnext,"",x\r\n')).toEqual([
      ['Doe, Jane', 'She said "hi"', 'line 1\r\nline 2\nline 3'],
      ['next', '', 'x'],
    ]);
  });

  it('keeps empty fields, at the ends too, and a blank line as one empty field', () => {
    expect(parseCsv(',a,\n\n,\n')).toEqual([['', 'a', ''], [''], ['', '']]);
  });

  it('keeps a quote inside an unquoted field, and text after a closing quote, as spreadsheets do', () => {
    expect(parseCsv('5" pipe,"ab"cd,e\n')).toEqual([['5" pipe', 'abcd', 'e']]);
  });

  it('refuses a quoted field that is never closed, naming the line it starts on', () => {
    const read = () => parseCsv('a,b\nc,"open\nstill open\n');
    expect(read).toThrow(CsvError);
    expect(read).toThrow('A quoted field that starts on line 2 is never closed.');
  });

  it('counts lines inside earlier quoted fields when it names the line', () => {
    expect(() => parseCsv('"x\r\ny",1\n"z\n')).toThrow('starts on line 3');
  });

  it('reads an empty file as no records', () => {
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('\ufeff')).toEqual([]);
  });

  it('reads another delimiter when told', () => {
    expect(parseCsv('a;"b;c"\td\n', { delimiter: ';' })).toEqual([['a', 'b;c\td']]);
    expect(parseCsv('a\t"b\tc"\n', { delimiter: '\t' })).toEqual([['a', 'b\tc']]);
  });
});

describe('guessDelimiter', () => {
  it('picks a comma, else a semicolon, else a tab, from the first line outside quotes', () => {
    expect(guessDelimiter('Name,Email;x\n')).toBe(',');
    expect(guessDelimiter('"Doe, Jane";Email\r\n1,2')).toBe(';');
    expect(guessDelimiter('Name\tEmail\n')).toBe('\t');
    expect(guessDelimiter('Name\n')).toBe(',');
  });
});
