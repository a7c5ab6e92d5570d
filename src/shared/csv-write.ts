/**
 * CSV cells for spreadsheets. A cell starting with = + - @ (or tab / carriage return) would
 * run as a formula when opened, so it gets a leading apostrophe.
 * https://owasp.org/www-community/attacks/CSV_Injection
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export const csvRow = (cells: Parameters<typeof csvCell>[0][]) => `${cells.map(csvCell).join(',')}\r\n`;
