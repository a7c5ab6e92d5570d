import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ChevronDown } from '#client/components/icons.tsx';

export type MenuStage = { id: string; name: string };

/**
 * **Move to** on a card: a menu button (https://www.w3.org/WAI/ARIA/apg/patterns/menu-button/).
 * Opening focuses the first stage; the arrow keys, Home and End move between stages; Enter or a
 * click moves the deal; Escape closes and puts focus back on the button; so do Tab and a click
 * outside (without taking focus back). The deal's own stage is not offered.
 */
export function MoveToMenu({ leadName, stages, onMove }: { leadName: string; stages: MenuStage[]; onMove: (stageId: string) => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const id = useId();
  const items = () => Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const away = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const go = (i: number) => list[(i + list.length) % list.length]?.focus();
    if (event.key === 'ArrowDown') go(at + 1);
    else if (event.key === 'ArrowUp') go(at - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(list.length - 1);
    else if (event.key === 'Escape') close(true);
    else if (event.key === 'Tab') return setOpen(false);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={`Move ${leadName} to`}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        Move to
        <ChevronDown aria-hidden="true" className="size-3.5" />
      </button>
      {open ? (
        <ul
          ref={menu}
          id={id}
          role="menu"
          aria-label={`Move ${leadName} to`}
          onKeyDown={onKeyDown}
          className="absolute right-0 z-20 mt-1 min-w-44 rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          {stages.map((stage) => (
            <li key={stage.id} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  close(true);
                  onMove(stage.id);
                }}
                className="block w-full px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-blue-50 focus:bg-blue-50 focus:outline-none"
              >
                {stage.name}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
