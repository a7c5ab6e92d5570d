/**
 * With DATABASE_URL the data lives in PostgreSQL, whose own tools make consistent backups
 * of a running database; `npm run backup`/`restore` explain them instead of copying files.
 * The password is never printed: pg_dump reads it from ~/.pgpass or PGPASSWORD.
 * https://www.postgresql.org/docs/current/app-pgdump.html
 */
export function redactedUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '';
  return u.toString();
}

export function postgresBackupHelp(databaseUrl: string): string {
  const url = redactedUrl(databaseUrl);
  return `DATABASE_URL is set: the data is in PostgreSQL, so back it up with PostgreSQL's own tools
(pg_dump, of the server's major version or newer). Nothing was done.

Back up (a consistent snapshot; the app can keep running):
  pg_dump --format=custom --file="crm-$(date -u +%Y%m%dT%H%M%SZ).dump" '${url}'

Restore (stop the app first; one transaction, so a failure changes nothing):
  pg_restore --clean --if-exists --no-owner --single-transaction --dbname='${url}' crm-YYYYMMDDTHHMMSSZ.dump

The password is left out of the URL above: put it in ~/.pgpass
(https://www.postgresql.org/docs/current/libpq-pgpass.html) or in PGPASSWORD.
`;
}
