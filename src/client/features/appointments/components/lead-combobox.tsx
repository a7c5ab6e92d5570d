import { useEffect, useId, useState, type KeyboardEvent, type Ref } from 'react';
import { useLeadSearch, type LeadOption } from '../api/search-leads.ts';
import { FieldError } from '#client/components/ui/form-field.tsx';

export const LEAD_SEARCH_DEBOUNCE_MS = 250;

type Props = {
  label: string;
  /** The chosen lead's id, '' when none. */
  value: string;
  /** The lead chosen when the picker opens, if any (its id is `value`). */
  initial?: LeadOption | null;
  onChange: (leadId: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * The lead picker: an editable combobox whose options come from the server's lead search
 * (there may be 100,000 leads). Keyboard and ARIA as in the WAI-ARIA combobox pattern:
 * https://www.w3.org/WAI/ARIA/apg/patterns/combobox/examples/combobox-autocomplete-list/
 */
export function LeadCombobox({ label, value, initial = null, onChange, onBlur, error, inputRef }: Props) {
  const id = useId();
  const inputId = `${id}-input`;
  const listboxId = `${id}-listbox`;
  const errorId = `${id}-error`;
  const optionId = (index: number) => `${id}-option-${index}`;

  const [text, setText] = useState(initial?.full_name ?? '');
  const [term, setTerm] = useState(initial?.full_name ?? '');
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  const [selected, setSelected] = useState<LeadOption | null>(initial);

  // Ask the server once typing pauses, not on every keystroke.
  useEffect(() => {
    const timer = setTimeout(() => setTerm(text), LEAD_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const search = useLeadSearch(term, open);
  const options = search.data ?? [];
  const active = activeIndex < options.length ? activeIndex : -1;
  const chosen = selected && selected.id === value ? selected : null;

  // Escape closes the list, not the dialog around it: Radix listens on the document in the
  // capture phase, so this listens earlier (on window) and marks the key as handled.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || (event.target as HTMLElement | null)?.id !== inputId) return;
      event.preventDefault();
      setOpen(false);
      setActiveIndex(-1);
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [open, inputId]);

  // Keep the highlighted option in view as the arrow keys move through a scrolled list.
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  });

  const choose = (lead: LeadOption) => {
    setSelected(lead);
    setText(lead.full_name);
    setOpen(false);
    setActiveIndex(-1);
    onChange(lead.id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        setActiveIndex(event.key === 'ArrowDown' ? 0 : options.length - 1);
        return;
      }
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActiveIndex((active + step + options.length) % options.length);
    } else if (event.key === 'Enter' && open) {
      event.preventDefault(); // picking a lead must not submit the form
      const option = options[active];
      if (option) choose(option);
    }
  };

  const message = !open
    ? null
    : search.isPending || (search.isFetching && options.length === 0)
      ? 'Searching...'
      : options.length === 0
        ? 'No matching leads'
        : null;
  const describedBy = [chosen ? `${id}-chosen` : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className="relative">
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="text"
        role="combobox"
        autoComplete="off"
        placeholder="Search leads by name, email or phone"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listboxId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActiveIndex(-1);
          if (value) onChange(''); // typing again drops the earlier choice
        }}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          setActiveIndex(-1);
          onBlur?.();
        }}
        className={`block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-2 focus:outline-blue-600 ${
          error ? 'border-red-500' : 'border-slate-300'
        }`}
      />
      <div hidden={!open} className="absolute inset-x-0 top-full z-10 mt-1 rounded-md border border-slate-200 bg-white shadow-lg">
        <ul id={listboxId} role="listbox" aria-label="Leads" className="max-h-60 overflow-y-auto py-1">
          {options.map((lead, index) => (
            <li
              key={lead.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              // mousedown would blur the input (closing the list) before the click lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(lead)}
              className={`cursor-pointer px-3 py-2 text-sm ${index === active ? 'bg-blue-100' : 'hover:bg-slate-50'}`}
            >
              <span className="block font-medium text-slate-900">{lead.full_name}</span>
              <span className="block truncate text-slate-600">{lead.email}</span>
            </li>
          ))}
        </ul>
        {message ? <p className="px-3 py-2 text-sm text-slate-500">{message}</p> : null}
      </div>
      {chosen ? (
        <p id={`${id}-chosen`} className="mt-1 truncate text-xs text-slate-500">
          Selected: {chosen.full_name} ({chosen.email})
        </p>
      ) : null}
      <FieldError id={errorId} error={error} />
    </div>
  );
}
