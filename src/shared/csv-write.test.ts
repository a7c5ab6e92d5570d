import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv-write.ts';

// https://owasp.org/www-community/attacks/CSV_Injection
describe('csvCell', () => {
  it.each(['=1+1', '+1 555 0100', '-2+3', '@SUM(A1:A2)', '\t=1', '\r=1', '=HYPERLINK("http://evil.example","x")'])(
    'prefixes a cell a spreadsheet would run as a formula: %j',
    (value) => {
      expect(csvCell(value)).toBe(`"'${value.replace(/"/g, '""')}"`);
    },
  );

  it.each(['Ada Lovelace', '(301) 555-0100', ' =1', 'a=b', '<script>window.__xss=1</script>', "'quoted"])(
    'leaves other text as it is: %j',
    (value) => {
      expect(csvCell(value)).toBe(`"${value}"`);
    },
  );

  it('quotes every cell, doubles quotes, keeps line breaks inside the quotes and writes empty values as empty', () => {
    expect(csvRow(['say "hi"', 'line 1\r\nline 2', null, undefined, 3, false])).toBe(
      '"say ""hi""","line 1\r\nline 2","","","3","false"\r\n',
    );
  });
});
