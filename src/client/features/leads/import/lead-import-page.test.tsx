// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeadImportResult } from '#shared/schemas/lead-import';
import { toast } from '#client/components/ui/toast-store.ts';
import { mockApi, renderWithProviders, type ApiCall } from '#client/test/render-with-providers.tsx';
import { LeadImportPage } from './lead-import-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const CSV = [
  'Full Name,E-mail,Telephone,Kind of property,Notes',
  'Ada Lovelace,ada@example.com,555-0101,Single Family,Duplex',
  'Bob Broken,not-an-email,555-0102,Condo,',
  'Cy Known,cy@example.com,555-0103,Land,"Two lots, corner"',
].join('\r\n');

const report = (over: Partial<LeadImportResult> = {}): LeadImportResult => ({
  dry_run: true,
  total: 3,
  created: 1,
  updated: 0,
  skipped: 1,
  error_rows: 1,
  errors: [
    { row: 3, field: 'email', message: 'Invalid email address' },
    { row: 3, field: 'property_type', message: 'Unknown property type: use Single family, Multifamily, Commercial, Land or Other.' },
  ],
  duplicate_rows: [4],
  ...over,
});

const choose = async (user: ReturnType<typeof userEvent.setup>, text: string, name = 'leads.csv') =>
  user.upload(screen.getByLabelText('CSV file'), new File([text], name, { type: 'text/csv' }));

describe('LeadImportPage', () => {
  it('guesses the columns it can, asks for the missing required one, previews the errors and keeps Import off until the file is fixed', async () => {
    const user = userEvent.setup({ delay: null });
    let answer = report();
    const { calls } = mockApi(({ method, path }) => (method === 'POST' && path === '/api/leads/import' ? { body: answer } : undefined));
    renderWithProviders(<LeadImportPage />, { url: '/dashboard/leads/import' });
    expect(screen.getByRole('heading', { level: 1, name: 'Import leads' })).toBeInTheDocument();

    await choose(user, CSV);
    expect(await screen.findByText('leads.csv: 3 leads.')).toBeInTheDocument();
    const select = (label: string) => screen.getByRole('combobox', { name: label });
    expect(select('Name')).toHaveDisplayValue('Full Name');
    expect(select('Email')).toHaveDisplayValue('E-mail');
    expect(select('Phone')).toHaveDisplayValue('Telephone');
    expect(select('Message')).toHaveDisplayValue('Notes');
    expect(select('Property type')).toHaveDisplayValue('Not in the file');

    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(select('Property type')).toHaveAccessibleDescription('Choose the column that holds Property type.');
    expect(calls).toHaveLength(0);

    await user.selectOptions(select('Property type'), 'Kind of property');
    await user.click(screen.getByRole('radio', { name: 'Update them' }));
    await user.click(screen.getByRole('radio', { name: 'Skip leads whose email exists' }));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const preview = await screen.findByRole('region', { name: /The first 3 rows and every row with an error/ });
    expect(calls[0]).toEqual<ApiCall>({
      method: 'POST',
      path: '/api/leads/import',
      body: {
        rows: [
          { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555-0101', property_type: 'Single Family', message: 'Duplex' },
          { full_name: 'Bob Broken', email: 'not-an-email', phone: '555-0102', property_type: 'Condo', message: '' },
          { full_name: 'Cy Known', email: 'cy@example.com', phone: '555-0103', property_type: 'Land', message: 'Two lots, corner' },
        ],
        duplicates: 'skip',
        dry_run: true,
        file_name: 'leads.csv',
        first_row: 2,
      },
    });
    const row = (name: string) => within(preview).getByRole('row', { name: new RegExp(name) });
    expect(row('Ada Lovelace')).toHaveTextContent('New lead');
    expect(row('Bob Broken')).toHaveTextContent('Email: Invalid email address');
    expect(row('Bob Broken')).toHaveTextContent('Property type: Unknown property type');
    expect(within(row('Bob Broken')).getByRole('rowheader')).toHaveTextContent('3');
    expect(row('Cy Known')).toHaveTextContent('Skip: the email exists');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Fix the rows with errors in the file, then choose it again. Nothing is imported while a row has an error.',
    );
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();

    // The fixed file: previewed clean, then imported.
    answer = report({ created: 2, error_rows: 0, errors: [] });
    await choose(user, CSV.replace('not-an-email', 'bob@example.com').replace('Condo', 'Commercial'), 'fixed.csv');
    expect(await screen.findByText('fixed.csv: 3 leads.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
    await user.selectOptions(select('Property type'), 'Kind of property');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByRole('region', { name: /The first 3 rows/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    answer = { ...report({ created: 2, error_rows: 0, errors: [] }), dry_run: false };
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported 2 leads. Skipped 1 lead already there.')).toBeInTheDocument();
    expect(calls.at(-1)!.body).toMatchObject({ dry_run: false, file_name: 'fixed.csv', duplicates: 'skip' });
    expect(screen.getByTestId('current-url')).toHaveTextContent('/dashboard/leads');
  });

  it('says why a file cannot be used', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi(() => undefined);
    renderWithProviders(<LeadImportPage />, { url: '/dashboard/leads/import' });
    await choose(user, 'Name,Email\n');
    expect(await screen.findByText('The file has no leads: it needs a header row and at least one row under it.')).toBeInTheDocument();
    expect(screen.getByLabelText('CSV file')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('button', { name: 'Preview' })).not.toBeInTheDocument();
  });

  it('shows the report when the import itself finds errors (the leads changed since the preview)', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi(({ body }) =>
      (body as { dry_run: boolean }).dry_run
        ? { body: report({ error_rows: 0, errors: [], created: 3, skipped: 0, duplicate_rows: [] }) }
        : {
            status: 400,
            body: {
              error: {
                code: 'validation_failed',
                message: '1 row has errors. Nothing was imported.',
                import_report: report({
                  errors: [{ row: 2, field: 'message', message: 'The customer’s message cannot be changed: add a note instead.' }],
                }),
              },
            },
          },
    );
    renderWithProviders(<LeadImportPage />, { url: '/dashboard/leads/import' });
    await choose(user, CSV.replace('Kind of property', 'Property Type'));
    await user.click(await screen.findByRole('button', { name: 'Preview' }));
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    expect(await screen.findByText('1 row has errors. Nothing was imported.')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Ada Lovelace/ })).toHaveTextContent('Message: The customer’s message cannot be changed');
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  });
});
