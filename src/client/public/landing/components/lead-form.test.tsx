// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '#client/components/ui/toaster.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { LEAD_FAILURE_MESSAGE, LEAD_SUCCESS_MESSAGE } from '../lead-messages.ts';
import { LeadForm } from './lead-form.tsx';

// The form's POSTs; the token GETs are answered by tokenMock, each with a new token.
const fetchMock = vi.fn<typeof fetch>();
const tokenMock = vi.fn<typeof fetch>();
let tokensIssued = 0;
const TOKEN_PATH = '/api/public/form-token';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function setup() {
  const user = userEvent.setup({ delay: null });
  render(
    <>
      <LeadForm />
      <Toaster />
    </>,
  );
  const submit = () => user.click(screen.getByRole('button', { name: 'Submit Request' }));
  const fillValid = async (overrides: Partial<Record<'name' | 'email' | 'phone', string>> = {}) => {
    await user.type(screen.getByLabelText('Full name'), overrides.name ?? 'Jordan Investor');
    await user.type(screen.getByLabelText('Email'), overrides.email ?? 'jordan@example.com');
    await user.type(screen.getByLabelText('Phone'), overrides.phone ?? '(240) 555-0199');
    await user.selectOptions(screen.getByLabelText('Property type'), 'single-family');
    await user.type(screen.getByLabelText('Additional information'), 'A duplex');
  };
  return { user, submit, fillValid };
}

/** The thanks, once shown: in the form's own status line. */
const thanked = () => screen.findByText(LEAD_SUCCESS_MESSAGE);

function sentBodies(): Record<string, unknown>[] {
  return fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

beforeEach(() => {
  fetchMock.mockReset();
  tokenMock.mockReset();
  tokensIssued = 0;
  tokenMock.mockImplementation(async () =>
    json(200, { form_token: `token-${++tokensIssued}`, min_age_seconds: 0, max_age_seconds: 86_400 }),
  );
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === TOKEN_PATH ? tokenMock(input, init) : fetchMock(input, init),
  );
});

afterEach(() => {
  cleanup();
  toast.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('LeadForm', () => {
  it('has the labelled fields, the 4-row message and the property options', () => {
    setup();
    expect(screen.getByLabelText('Additional information')).toHaveAttribute('rows', '4');
    const select = screen.getByLabelText('Property type');
    const options = within(select).getAllByRole('option');
    expect(options.map((o) => [o.getAttribute('value'), o.textContent])).toEqual([
      ['', 'Select property type'],
      ['single-family', 'Single family'],
      ['multifamily', 'Multifamily'],
      ['commercial', 'Commercial'],
      ['land', 'Land'],
      ['other', 'Other'],
    ]);
    const honeypot = screen.getByLabelText('Leave this field empty');
    expect(honeypot).toHaveAttribute('tabindex', '-1');
    expect(honeypot).toHaveAttribute('autocomplete', 'off');
    expect(honeypot.closest('[aria-hidden="true"]')).toHaveClass('honeypot');
  });

  it('shows each required message under its field, tied with aria-describedby', async () => {
    const { submit } = setup();
    await submit();
    const expected: [string, string][] = [
      ['Full name', 'Name is required'],
      ['Email', 'Email is required'],
      ['Phone', 'Phone number is required'],
      ['Property type', 'Property type is required'],
    ];
    for (const [label, message] of expected) {
      const field = screen.getByLabelText(label);
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(message);
      expect(field.className).toContain('border-red-600');
      expect(screen.getByText(message).id).toBe(field.getAttribute('aria-describedby'));
    }
    expect(screen.getByLabelText('Additional information')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Full name')).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows "Invalid email address" and clears it once the email is fixed', async () => {
    const { user, submit, fillValid } = setup();
    await fillValid({ email: 'jordan@example' });
    await submit();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAccessibleDescription('Invalid email address');
    expect(email).toHaveFocus();
    await user.type(email, '.com');
    expect(screen.queryByText('Invalid email address')).not.toBeInTheDocument();
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('disables the button and shows Submitting... while the request is in flight', async () => {
    let answer: (r: Response) => void = () => {};
    fetchMock.mockReturnValue(new Promise<Response>((resolve) => (answer = resolve)));
    const { submit, fillValid } = setup();
    await fillValid();
    await submit();
    const busy = screen.getByRole('button', { name: 'Submitting...' });
    expect(busy).toBeDisabled();
    answer(json(201, { status: 'received' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit Request' })).toBeEnabled());
  });

  it('fetches its token at first focus of the form, not before', async () => {
    const { user } = setup();
    expect(tokenMock).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText('Full name'));
    await user.tab();
    await waitFor(() => expect(tokenMock).toHaveBeenCalledTimes(1));
    expect(tokenMock.mock.calls[0]![1]?.method).toBe('GET');
  });

  it('sends the lead with honeypot, submission_id and the form token, then resets and thanks', async () => {
    fetchMock.mockResolvedValue(json(201, { status: 'received' }));
    const { submit, fillValid } = setup();
    await fillValid({ email: 'Jordan@Example.com' });
    await submit();

    expect(await thanked()).toHaveAttribute('role', 'status');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/public/leads');
    expect(init?.method).toBe('POST');
    const body = sentBodies()[0]!;
    expect(body).toMatchObject({
      full_name: 'Jordan Investor',
      email: 'jordan@example.com',
      phone: '(240) 555-0199',
      property_types: ['single-family'],
      message: 'A duplex',
      website: '',
    });
    expect(body.submission_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.form_token).toBe('token-1');
    expect(body).not.toHaveProperty('fill_ms');
    expect(tokenMock).toHaveBeenCalledTimes(1);

    for (const label of ['Full name', 'Email', 'Phone', 'Property type', 'Additional information']) {
      expect(screen.getByLabelText(label)).toHaveValue('');
    }
  });

  it('thanks in its own live status line above the form, not in a toast, until the next submission', async () => {
    let answer: (r: Response) => void = () => {};
    fetchMock.mockResolvedValueOnce(json(201, { status: 'received' }));
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    const { submit, fillValid } = setup();
    // The live region is there, silent, before it has anything to say.
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('');
    await fillValid();
    await submit();
    expect(await thanked()).toBe(status);
    expect(status.compareDocumentPosition(screen.getByRole('form')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getAllByText(LEAD_SUCCESS_MESSAGE)).toHaveLength(1); // no toast says it too
    await fillValid({ email: 'again@example.com' });
    await submit();
    await waitFor(() => expect(status).toHaveTextContent(''));
    answer(json(201, { status: 'received' }));
    expect(await thanked()).toBe(status);
  });

  it('sends what a bot typed into the honeypot', async () => {
    fetchMock.mockResolvedValue(json(201, { status: 'received' }));
    const { user, submit, fillValid } = setup();
    await fillValid();
    await user.type(screen.getByLabelText('Leave this field empty'), 'https://spam.example');
    await submit();
    await thanked();
    expect(sentBodies()[0]!.website).toBe('https://spam.example');
  });

  it('shows the server message of a 429 as an error toast', async () => {
    const message = 'Too many requests. Please try again in 42 minutes.';
    fetchMock.mockResolvedValue(json(429, { error: { code: 'rate_limited', message } }));
    const { submit, fillValid } = setup();
    await fillValid();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText('Full name')).toHaveValue('Jordan Investor');
  });

  it('shows the server field errors of a 400 under the fields', async () => {
    fetchMock.mockResolvedValue(
      json(400, {
        error: { code: 'validation_failed', message: 'Invalid', fields: { email: 'Invalid email address' } },
      }),
    );
    const { submit, fillValid } = setup();
    await fillValid();
    await submit();
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAccessibleDescription('Invalid email address'));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('on a network failure shows the generic toast, logs, keeps the values and reuses the submission_id', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    fetchMock.mockResolvedValueOnce(json(503, { error: { code: 'service_unavailable', message: 'Down' } }));
    fetchMock.mockResolvedValueOnce(json(201, { status: 'received' }));
    fetchMock.mockResolvedValueOnce(json(201, { status: 'received' }));
    const { submit, fillValid } = setup();
    await fillValid();

    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(LEAD_FAILURE_MESSAGE);
    expect(logged).toHaveBeenCalled();
    expect(screen.getByLabelText('Full name')).toHaveValue('Jordan Investor');
    expect(screen.getByLabelText('Property type')).toHaveValue('single-family');

    await submit(); // a 5xx: same message, same id
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    await submit(); // success
    await thanked();
    await fillValid();
    await submit(); // a new form: a new id

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(4));
    const ids = sentBodies().map((b) => b.submission_id);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).toBe(ids[0]);
    expect(ids[3]).not.toBe(ids[0]);
  });

  it('sends each new form with a fresh token, and a retried one with the same token (a token serves one submission)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    fetchMock.mockResolvedValue(json(201, { status: 'received' }));
    const { submit, fillValid } = setup();
    await fillValid();
    await submit(); // the answer is lost
    await screen.findByRole('alert');
    await submit(); // the same submission again
    await thanked();
    await fillValid({ email: 'second@example.com' });
    await submit(); // a new form
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    const [lost, retried, next] = sentBodies();
    expect([lost!.form_token, retried!.form_token]).toEqual(['token-1', 'token-1']);
    expect(retried!.submission_id).toBe(lost!.submission_id);
    expect(next!.form_token).toBe('token-2');
    expect(next!.submission_id).not.toBe(lost!.submission_id);
  });

  it('when the server refuses the token, sends once more with a fresh one and the same submission_id', async () => {
    const refused = 'This form has expired. Please reload the page and send it again.';
    fetchMock.mockResolvedValueOnce(json(400, { error: { code: 'validation_failed', message: refused, fields: { form_token: refused } } }));
    fetchMock.mockResolvedValueOnce(json(201, { status: 'received' }));
    const { submit, fillValid } = setup();
    await fillValid();
    await submit();
    expect(await thanked()).toHaveAttribute('role', 'status');
    const [first, second] = sentBodies();
    expect([first!.form_token, second!.form_token]).toEqual(['token-1', 'token-2']);
    expect(second!.submission_id).toBe(first!.submission_id);
  });

  it('says so, keeping the values, when a fresh token is refused too', async () => {
    const refused = 'This form has expired. Please reload the page and send it again.';
    fetchMock.mockImplementation(async () =>
      json(400, { error: { code: 'validation_failed', message: refused, fields: { form_token: refused } } }),
    );
    const { submit, fillValid } = setup();
    await fillValid();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(refused);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.getByLabelText('Full name')).toHaveValue('Jordan Investor');
  });
});
