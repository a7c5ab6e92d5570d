import { describe, expect, it } from 'vitest';
import { guessMapping, importRows, mappingErrors, readImportFile, unguardCell } from './import-file.ts';

describe('readImportFile', () => {
  it('reads the header and rows, dropping blank rows at the end only', () => {
    const read = readImportFile('a.csv', '\ufeffFull Name,E-mail\r\nAda,ada@example.com\r\n,\r\nBob,bob@example.com\r\n,\r\n\r\n');
    expect(read).toEqual({
      file: {
        name: 'a.csv',
        header: ['Full Name', 'E-mail'],
        rows: [
          ['Ada', 'ada@example.com'],
          ['', ''],
          ['Bob', 'bob@example.com'],
        ],
      },
    });
  });

  it('reads a file saved with semicolons', () => {
    expect(readImportFile('a.csv', 'Name;Email\nAda;ada@example.com\n')).toMatchObject({
      file: { header: ['Name', 'Email'], rows: [['Ada', 'ada@example.com']] },
    });
  });

  it('says what is wrong with a file it cannot use', () => {
    expect(readImportFile('a.csv', 'Name\n')).toEqual({
      error: 'The file has no leads: it needs a header row and at least one row under it.',
    });
    expect(readImportFile('a.csv', 'Name\n"Ada\n')).toEqual({
      error: 'This file cannot be read: A quoted field that starts on line 2 is never closed.',
    });
    expect(readImportFile('a.csv', `Name\n${'x\n'.repeat(10_001)}`)).toEqual({
      error: 'The file has 10,001 leads. At most 10,000 can be imported at once: split it into parts.',
    });
  });
});

describe('guessMapping', () => {
  it('finds each field by the names people give columns, one column per field', () => {
    expect(
      guessMapping([
        'Full Name',
        'E-mail',
        'Phone Number',
        'Property Type',
        'Status',
        'Notes',
        'Address',
        'Closing Date',
        'Fee ($)',
        'Date Added',
        'Other',
      ]),
    ).toEqual({
      full_name: 0,
      email: 1,
      phone: 2,
      property_type: 3,
      status: 4,
      message: 5,
      property_address: 6,
      target_closing_date: 7,
      estimated_fee: 8,
      created_at: 9,
    });
    // Our own export's header.
    expect(guessMapping(['Name', 'Email', 'Phone', 'Property Type', 'Status', 'Contacted', 'Date Added', 'Message'])).toEqual({
      full_name: 0,
      email: 1,
      phone: 2,
      property_type: 3,
      status: 4,
      created_at: 6,
      message: 7,
    });
    expect(guessMapping(['Whatever', 'Something'])).toEqual({});
  });

  it('asks for a column for each required field', () => {
    expect(mappingErrors({ full_name: 0, email: 1 })).toEqual({
      phone: 'Choose the column that holds Phone.',
      property_type: 'Choose the column that holds Property type.',
    });
  });
});

describe('importRows', () => {
  it('sends each mapped field with its cell, without the apostrophe an export puts before a formula-like cell', () => {
    const file = { name: 'a.csv', header: ['Name', 'Phone', 'Extra'], rows: [['Ada', "'+1 301 555 0100", 'x'], ['Bob']] };
    expect(importRows(file, { full_name: 0, phone: 1 })).toEqual([
      { full_name: 'Ada', phone: '+1 301 555 0100' },
      { full_name: 'Bob', phone: '' },
    ]);
    expect(unguardCell("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(unguardCell("'quoted")).toBe("'quoted");
  });
});
