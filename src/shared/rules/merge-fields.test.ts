import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emailTemplateRequestSchema } from '../schemas/email-template.ts';
import { fieldErrors } from '../schemas/error.ts';
import { fillMergeFields, firstNameOf, mergeFieldProblem, mergeFieldsIn, MERGE_FIELDS } from './merge-fields.ts';
import { checkMessageText, checkTemplateName } from './message.ts';

const VALUES = {
  first_name: 'Jane',
  full_name: 'Jane Doe',
  property_address: '12 Elm St',
  my_name: 'Dana',
  my_phone: '(202) 555-0100',
};

describe('merge fields', () => {
  it('knows its six fields, with spaces inside the braces allowed, and names the first unknown one', () => {
    expect(
      mergeFieldProblem('Hi {{first_name}} {{ full_name }}, {{booking_link}} {{my_name}} {{my_phone}} {{property_address}}'),
    ).toBeUndefined();
    expect(mergeFieldProblem('Hi {{ name }} and {{other}}')).toBe(
      'Unknown merge field {{ name }}: use {{first_name}}, {{full_name}}, {{property_address}}, {{booking_link}}, {{my_name}} or {{my_phone}}',
    );
    // Case matters, as it does when filled in.
    expect(mergeFieldProblem('{{First_Name}}')).toMatch(/^Unknown merge field \{\{First_Name\}\}/);
    // Single braces, unclosed ones and braces in JSON-like text are not fields.
    expect(mergeFieldProblem('a {b} {{c and } d')).toBeUndefined();
    // A very long unknown field is named short.
    expect(mergeFieldProblem(`{{${'x'.repeat(500)}}}`)!.length).toBeLessThan(200);
  });

  it('fills every known field in one pass, and leaves what has no value as written', () => {
    expect(fillMergeFields('Hi {{first_name}} ({{ full_name }}) at {{property_address}}: {{booking_link}}', VALUES)).toBe(
      'Hi Jane (Jane Doe) at 12 Elm St: {{booking_link}}',
    );
    // A value that looks like a field stays as it is.
    expect(fillMergeFields('{{full_name}} / {{my_phone}}', { ...VALUES, full_name: '{{my_phone}}' })).toBe('{{my_phone}} / (202) 555-0100');
    expect(mergeFieldsIn('{{first_name}} {{first_name}} {{ booking_link }} {{nope}}')).toEqual(['first_name', 'booking_link']);
  });

  it('never leaves a known field behind when every value is given, whatever the text around it', () => {
    const all = { ...VALUES, booking_link: 'https://x.test/booking/t' };
    const piece = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...MERGE_FIELDS.map((f) => `{{${f}}}`), '{', '}', '{{', '}}'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const filled = fillMergeFields(pieces.join(''), all);
        expect(mergeFieldsIn(filled)).toEqual([]);
      }),
    );
  });

  it('greets by the first word of a name', () => {
    expect(firstNameOf('  Jane Q  Doe ')).toBe('Jane');
  });
});

describe('a message and a template as the browser checks them', () => {
  it('says what the server says', () => {
    const cases = [
      { name: 'x', subject: '', body: 'b' },
      { name: 'x', subject: 's', body: '   ' },
      { name: 'x', subject: 'Hi {{firstname}}', body: 'b' },
      { name: 'x', subject: 's', body: 'Hi {{ nope }}' },
      { name: 'x', subject: 's'.repeat(201), body: 'b' },
      { name: '', subject: 's', body: 'b' },
      { name: 'n'.repeat(81), subject: 's', body: 'b' },
      { name: 'ok', subject: 'Hi {{first_name}}', body: 'Book: {{booking_link}}' },
    ];
    for (const c of cases) {
      const parsed = emailTemplateRequestSchema.safeParse(c);
      const server = parsed.success ? {} : fieldErrors(parsed.error);
      const name = checkTemplateName(c.name);
      const browser = { ...(name ? { name } : {}), ...checkMessageText(c) };
      expect(browser, JSON.stringify(c).slice(0, 80)).toEqual(server);
    }
  });
});
