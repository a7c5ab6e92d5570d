import { CalendarPlus, Rss, ShieldCheck } from '#client/components/icons.tsx';
import { useEffect, useRef, useState } from 'react';
import type { Appointment } from '#shared/schemas/appointment';
import { ConfirmDialog, lazyDialog } from '#client/components/ui/lazy-dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useUpdateAppointment } from './api/create-appointment.ts';
import { useDeleteAppointment } from './api/delete-appointment.ts';
import { useAppointments } from './api/get-appointments.ts';
import { useOutsideBusy } from './api/outside-busy.ts';
import { useAdmins } from '#client/lib/api/admins.ts';
import { monthGrid } from './calendar-month.ts';
import { STEP_LABELS, daysOf, viewRange, viewTitle } from './calendar-views.ts';
import { AgendaList } from './components/agenda-list.tsx';
import { AppointmentsList } from './components/appointments-list.tsx';
import { CalendarLegend } from './components/calendar-legend.tsx';
import { MonthCalendar } from './components/month-calendar.tsx';
import { ViewNav } from './components/view-nav.tsx';
import { ViewToggle } from './components/view-toggle.tsx';
import { WeekCalendar } from './components/week-calendar.tsx';
import { useAppointmentsView, useToday } from './use-appointments-view.ts';
import { Button } from '#client/components/ui/button.tsx';

const ScheduleAppointmentDialog = lazyDialog(
  () => import('./components/schedule-appointment-dialog.tsx').then((m) => m.ScheduleAppointmentDialog),
  (p) => p.open,
);
const BulkCancelDialog = lazyDialog(
  () => import('./components/bulk-cancel-dialog.tsx').then((m) => m.BulkCancelDialog),
  (p) => p.open,
);
const CalendarFeedDialog = lazyDialog(
  () => import('./components/calendar-feed-dialog.tsx').then((m) => m.CalendarFeedDialog),
  (p) => p.open,
);
const AppointmentDetailsDialog = lazyDialog(
  () => import('./components/appointment-details-dialog.tsx').then((m) => m.AppointmentDetailsDialog),
  (p) => p.appointment !== null,
);

// docs/product-rules.md, "Confirmations", word for word.
const STATUS_TOASTS = {
  cancelled: 'Appointment cancelled',
  completed: 'Appointment marked as completed',
  no_show: 'Appointment marked as a no-show',
  scheduled: 'Appointment scheduled again',
} as const;

export const DELETE_CONFIRMATION = 'Are you sure you want to delete this appointment? This action cannot be undone.';

const TITLE_ID = 'appointments-view-title';

/** /dashboard/appointments: the calendar (Month, Week, Agenda) or a list, scheduling, details, delete and the calendar feed. */
export function AppointmentsPage() {
  // The business time zone, as the server names it; "today" is that zone's day.
  const [timeZone, setTimeZone] = useState<string | undefined>(undefined);
  const today = useToday(timeZone);
  const { view, date, person, setPerson, setView, previous, next, today: goToToday } = useAppointmentsView(today);
  // Each view fetches the days it shows (the month grid's spill-over days included); the list, the month.
  const range = viewRange(view, date);
  const appointments = useAppointments({ ...range, host_id: person || undefined });
  const people = useAdmins();
  const outside = useOutsideBusy(view === 'list' ? '' : person, range.from, range.to);
  if (appointments.data && appointments.data.time_zone !== timeZone) setTimeZone(appointments.data.time_zone);

  const deleteAppointment = useDeleteAppointment();
  const [scheduling, setScheduling] = useState(false);
  const [feedOpen, setFeedOpen] = useState(false);
  const [bulkCancelOpen, setBulkCancelOpen] = useState(false);
  const [details, setDetails] = useState<Appointment | null>(null);
  const [deleting, setDeleting] = useState<Appointment | null>(null);
  const [editing, setEditing] = useState<Appointment | null>(null);
  const updateAppointment = useUpdateAppointment();
  const heading = useRef<HTMLHeadingElement>(null);
  // After a delete, the control that opened the dialog is gone: focus goes to the heading.
  const afterDelete = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!appointments.isError) return;
    console.error('Loading appointments failed', appointments.error);
    toast.error('Failed to load appointments');
  }, [appointments.isError, appointments.error, appointments.errorUpdatedAt]);

  const startDelete = (appointment: Appointment) => {
    afterDelete.current = null;
    setDeleting(appointment);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    deleteAppointment.mutate(deleting.id, {
      onSuccess: () => {
        toast.success('Appointment deleted successfully');
        afterDelete.current = heading.current;
        setDetails(null);
      },
      onError: (error) => {
        console.error('Deleting the appointment failed', error);
        toast.error('Failed to delete appointment');
      },
      onSettled: () => setDeleting(null),
    });
  };

  const startEdit = (appointment: Appointment) => {
    setDetails(null);
    setEditing(appointment);
  };

  const changeStatus = (appointment: Appointment, status: Appointment['status']) => {
    updateAppointment.mutate(
      { id: appointment.id, status },
      {
        onSuccess: (updated) => {
          toast.success(STATUS_TOASTS[status]);
          setDetails(updated);
        },
        onError: (error) => {
          console.error('Changing the appointment failed', error);
          toast.error(error instanceof ApiError && error.status === 409 ? error.message : 'Failed to update appointment');
        },
      },
    );
  };

  const list = appointments.data?.appointments ?? [];
  // What every calendar view is given.
  const shown = { appointments: list, today, titleId: TITLE_ID, busy: appointments.isFetching, onOpen: setDetails, outside: outside.data };
  return (
    <section aria-labelledby="appointments-heading" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="appointments-heading" ref={heading} tabIndex={-1} className="text-2xl font-bold text-slate-900 focus:outline-none">
          Appointments
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
            Person
            <select
              value={person}
              onChange={(e) => setPerson(e.currentTarget.value)}
              className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600"
            >
              <option value="">Everyone</option>
              {person && !people.data?.admins.some((a) => a.id === person) ? <option value={person}>Someone else</option> : null}
              {(people.data?.admins ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.display_name}
                </option>
              ))}
            </select>
          </label>
          <ViewToggle view={view} onChange={setView} />
          <Button onClick={() => setBulkCancelOpen(true)} variant="secondary" size="sm">
            <ShieldCheck aria-hidden="true" className="size-4" />
            Cancel website bookings…
          </Button>
          <Button onClick={() => setFeedOpen(true)} variant="secondary" size="sm">
            <Rss aria-hidden="true" className="size-4" />
            Calendar feed
          </Button>
          <Button onClick={() => setScheduling(true)}>
            <CalendarPlus aria-hidden="true" className="size-4" />
            Schedule
          </Button>
        </div>
      </div>
      <ViewNav
        title={viewTitle(view, date)}
        labels={STEP_LABELS[view]}
        onPrevious={previous}
        onToday={goToToday}
        onNext={next}
        titleId={TITLE_ID}
      />
      {/* What the colours mean, and the clock every time here is on (the business's). */}
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        {view === 'list' ? null : <CalendarLegend />}
        {timeZone ? <p className="text-xs text-slate-600">Times are in {timeZone.replace(/_/g, ' ')} time.</p> : null}
      </div>
      {appointments.data?.truncated ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Only the first {list.length.toLocaleString('en-US')} appointments of this {view === 'month' || view === 'list' ? 'month' : 'week'}{' '}
          are shown.
        </p>
      ) : null}
      {view === 'list' ? (
        appointments.isPending ? (
          <Spinner className="py-16" label="Loading appointments..." />
        ) : (
          <AppointmentsList appointments={list} onView={setDetails} onDelete={startDelete} />
        )
      ) : (
        <>
          {appointments.isPending ? <Spinner className="py-2" label="Loading appointments..." /> : null}
          {view === 'month' ? (
            <MonthCalendar month={date} weeks={monthGrid(date).weeks} {...shown} />
          ) : view === 'week' ? (
            <WeekCalendar days={daysOf(range)} {...shown} />
          ) : (
            <AgendaList days={daysOf(range)} {...shown} />
          )}
        </>
      )}
      <ScheduleAppointmentDialog open={scheduling} onOpenChange={setScheduling} />
      <CalendarFeedDialog open={feedOpen} onOpenChange={setFeedOpen} />
      <BulkCancelDialog open={bulkCancelOpen} onOpenChange={setBulkCancelOpen} />
      <ScheduleAppointmentDialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} appointment={editing} />
      <AppointmentDetailsDialog
        appointment={details}
        onClose={() => setDetails(null)}
        onDelete={startDelete}
        onEdit={startEdit}
        onStatus={changeStatus}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete appointment"
        description={DELETE_CONFIRMATION}
        confirmLabel="Delete"
        busy={deleteAppointment.isPending}
        onConfirm={confirmDelete}
        returnFocusRef={afterDelete}
      />
    </section>
  );
}
