import { apiPath } from '#client/lib/api-client.ts';

/** "Export everything": the browser downloads it (the server names the file), like the CSV export. */
export const leadExportPath = (id: string) => apiPath`/api/leads/${id}/export`;
