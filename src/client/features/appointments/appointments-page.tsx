import { CalendarDays, CalendarPlus, List, Rss, ShieldCheck } from '#client/components/icons.tsx';
import { useEffect, useRef, useState } from 'react';
import type { Appointment } from '#shared/schemas/appointment';
import { ConfirmDialog, lazyDialog } from '#client/components/ui/lazy-dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useUpdateAppointment } from './api/create-appointment.ts';
import { useDeleteAppointment } from './api/delete-appointment.ts';
import { useAppointments } from './api/get-appointments.ts';
import { monthGrid, monthRange } from './calendar-month.ts';
import { AppointmentsList } from './components/appointments-list.tsx';
import { MonthCalendar } from './components/month-calendar.tsx';
import { MonthNav } from './components/month-nav.tsx';
import { useStoredView, useToday, useVisibleMonth, type AppointmentsView } from './use-appointments-view.ts';

const ScheduleAppointmentDialog = lazyDialog(() => import('./components/schedule-appointment-dialog.tsx').then((m) => m.ScheduleAppointmentDialog), (p) => p.open);
const BulkCancelDialog = lazyDialog(() => import('./components/bulk-cancel-dialog.tsx').then((m) => m.BulkCancelDialog), (p) => p.open);
const CalendarFeedDialog = lazyDialog(() => import('./components/calendar-feed-dialog.tsx').then((m) => m.CalendarFeedDialog), (p) => p.open);
const AppointmentDetailsDialog = lazyDialog(
  () => import('./components/appointment-details-dialog.tsx').then((m) => m.AppointmentDetailsDialog),
  (p) => p.appointment !== null,
);

// docs/product-rules.md, "Confirmations", word for word.
const STATUS_TOASTS = { cancelled: 'Appointment cancelled', completed: 'Appointment marked as completed', scheduled: 'Appointment scheduled again' } as const;

export const DELETE_CONFIRMATION = 'Are you sure you want to delete this appointment? This action cannot be undone.';

const TITLE_ID = 'appointments-month-title';

/** /dashboard/appointments: a month calendar or a list, scheduling, details, delete and the calendar feed. */
export function AppointmentsPage() {
  const [view, setView] = useStoredView();
  // The business time zone, as the server names it; "today" is that zone's day.
  const [timeZone, setTimeZone] = useState<string | undefined>(undefined);
  const today = useToday(timeZone);
  const { month, previous, next, today: goToToday } = useVisibleMonth(today);
  const grid = monthGrid(month);
  // The calendar fetches its visible grid (spill-over days included); the list, the month.
  const range = view === 'calendar' ? { from: grid.from, to: grid.to } : monthRange(month);
  const appointments = useAppointments(range);
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
  return (
    <section aria-labelledby="appointments-heading" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="appointments-heading" ref={heading} tabIndex={-1} className="text-2xl font-bold text-slate-900 focus:outline-none">
          Appointments
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          <ViewToggle view={view} onChange={setView} />
          <button
            type="button"
            onClick={() => setBulkCancelOpen(true)}
            className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            <ShieldCheck aria-hidden="true" className="size-4" />
            Cancel website bookings…
          </button>
          <button
            type="button"
            onClick={() => setFeedOpen(true)}
            className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            <Rss aria-hidden="true" className="size-4" />
            Calendar feed
          </button>
          <button
            type="button"
            onClick={() => setScheduling(true)}
            className="inline-flex items-center gap-2 rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-blue-800"
          >
            <CalendarPlus aria-hidden="true" className="size-4" />
            Schedule
          </button>
        </div>
      </div>
      <MonthNav month={month} onPrevious={previous} onToday={goToToday} onNext={next} titleId={TITLE_ID} />
      {appointments.data?.truncated ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">Only the first {list.length.toLocaleString('en-US')} appointments of this month are shown.</p>
      ) : null}
      {view === 'calendar' ? (
        <>
          {appointments.isPending ? <Spinner className="py-2" label="Loading appointments..." /> : null}
          <MonthCalendar
            month={month}
            weeks={grid.weeks}
            appointments={list}
            today={today}
            titleId={TITLE_ID}
            busy={appointments.isFetching}
            onOpen={setDetails}
          />
        </>
      ) : appointments.isPending ? (
        <Spinner className="py-16" label="Loading appointments..." />
      ) : (
        <AppointmentsList appointments={list} onView={setDetails} onDelete={startDelete} />
      )}
      {timeZone ? <p className="text-xs text-slate-500">Times are in {timeZone.replace(/_/g, ' ')} time.</p> : null}
      <ScheduleAppointmentDialog open={scheduling} onOpenChange={setScheduling} />
      <CalendarFeedDialog open={feedOpen} onOpenChange={setFeedOpen} />
      <BulkCancelDialog open={bulkCancelOpen} onOpenChange={setBulkCancelOpen} />
      <ScheduleAppointmentDialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} appointment={editing} />
      <AppointmentDetailsDialog appointment={details} onClose={() => setDetails(null)} onDelete={startDelete} onEdit={startEdit} onStatus={changeStatus} />
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

function ViewToggle({ view, onChange }: { view: AppointmentsView; onChange: (view: AppointmentsView) => void }) {
  const option = (value: AppointmentsView, label: string, Icon: typeof List) => (
    <button
      type="button"
      aria-pressed={view === value}
      onClick={() => onChange(value)}
      className={`inline-flex items-center gap-1.5 px-3 py-2 text-sm font-medium ${view === value ? 'bg-slate-800 text-white' : 'bg-white text-slate-700 hover:bg-slate-50'}`}
    >
      <Icon aria-hidden="true" className="size-4" />
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="View" className="inline-flex overflow-hidden rounded-md border border-slate-300">
      {option('calendar', 'Calendar', CalendarDays)}
      {option('list', 'List', List)}
    </div>
  );
}
