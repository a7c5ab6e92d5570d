import * as Popover from '@radix-ui/react-popover';
import { format } from 'date-fns';
import { X } from '#client/components/icons.tsx';
import { useState } from 'react';
import type { Appointment } from '#shared/schemas/appointment';
import { calendarLabel, cancelledClass } from '../calendar-month.ts';
import { TYPE_COLORS } from './appointment-type-badge.tsx';

type Props = { day: Date; hidden: number; appointments: Appointment[]; onOpen: (appointment: Appointment) => void };

/** "+N more": a popover listing all of the day's appointments, each opening its details. */
export function DayOverflowPopover({ day, hidden, appointments, onOpen }: Props) {
  const [open, setOpen] = useState(false);
  const title = format(day, 'MMMM d, yyyy');
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        aria-label={`+${hidden} more appointments on ${title}`}
        className="mt-0.5 w-full truncate rounded px-0.5 text-left text-[10px] sm:px-1 font-medium text-blue-700 hover:bg-blue-50 hover:underline sm:text-xs"
      >
        +{hidden} more
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          side="bottom"
          align="start"
          sideOffset={4}
          collisionPadding={8}
          aria-label={`Appointments on ${title}`}
          className="z-40 w-64 max-w-[calc(100vw-1rem)] rounded-lg border border-slate-200 bg-white p-3 shadow-lg"
        >
          <div className="mb-2 flex items-center justify-between gap-2">
            <p className="text-sm font-semibold text-slate-900">{title}</p>
            <Popover.Close aria-label="Close" className="-m-1 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900">
              <X aria-hidden="true" className="size-4" />
            </Popover.Close>
          </div>
          <ul className="max-h-64 space-y-1 overflow-y-auto">
            {appointments.map((appointment) => (
              <li key={appointment.id}>
                <button
                  type="button"
                  onClick={() => {
                    setOpen(false);
                    onOpen(appointment);
                  }}
                  className={`block w-full truncate rounded px-2 py-1 text-left text-sm hover:brightness-95 ${TYPE_COLORS[appointment.type]} ${cancelledClass(appointment)}`}
                >
                  {calendarLabel(appointment)}
                </button>
              </li>
            ))}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
