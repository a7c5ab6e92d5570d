import { format } from 'date-fns';
import { useState, type FormEvent } from 'react';
import { TASK_TITLE_MAX, TASK_TYPE_LABELS, TASK_TYPES, type TaskType } from '#shared/constants';
import type { Task } from '#shared/schemas/lead-tasks';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useAdmins } from '#client/lib/api/admins.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useCreateTask } from '#client/features/tasks/api/create-task.ts';
import { useUpdateTask } from '#client/features/tasks/api/update-task.ts';

const NOBODY = '';
const DEFAULT_TIME = '09:00';

type Props = {
  leadId: string;
  name: string;
  /** The task to change; none to add one. */
  task?: Task | undefined;
  /** Whom a new task is for: the lead's owner (nobody: ''). */
  ownerId: string | null;
  open: boolean;
  onClose: () => void;
};

/** Add a task to the lead, or change one: its kind, title, due date and time (this computer's time), and for whom. */
export function TaskDialog({ open, onClose, name, task, ...rest }: Props) {
  return (
    <Modal open={open} onOpenChange={(next) => !next && onClose()} title={task ? 'Edit task' : `Add a task for ${name}`}>
      {open ? <TaskForm task={task} onClose={onClose} {...rest} /> : null}
    </Modal>
  );
}

function TaskForm({ leadId, task, ownerId, onClose }: Omit<Props, 'open' | 'name'>) {
  const create = useCreateTask(leadId);
  const update = useUpdateTask();
  const admins = useAdmins();
  const due = task ? new Date(task.due_at) : undefined;
  const [type, setType] = useState<TaskType>(task?.type ?? 'call');
  const [title, setTitle] = useState(task?.title ?? '');
  const [date, setDate] = useState(due ? format(due, 'yyyy-MM-dd') : '');
  const [time, setTime] = useState(due ? format(due, 'HH:mm') : DEFAULT_TIME);
  const [assignee, setAssignee] = useState(task ? (task.assignee?.id ?? NOBODY) : (ownerId ?? NOBODY));
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const busy = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = {
      title: title.trim() === '' ? 'Title is required' : undefined,
      due_at: date === '' || time === '' ? 'Choose when it is due' : undefined,
    };
    if (problems.title || problems.due_at) return setErrors(problems);
    const body = {
      type,
      title: title.trim(),
      due_at: new Date(`${date}T${time}`).toISOString(),
      assignee_id: assignee === NOBODY ? null : assignee,
    };
    const handlers = {
      onSuccess: () => {
        toast.success(task ? 'Task saved.' : 'Task added.');
        onClose();
      },
      onError: (error: Error) => {
        console.error('Saving the task failed', error);
        if (error instanceof ApiError && error.fields) return setErrors(error.fields);
        toast.error(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to save the task');
      },
    };
    if (task) update.mutate({ leadId, taskId: task.id, patch: body }, handlers);
    else create.mutate(body, handlers);
  };

  // The current assignee stays choosable even when they are no longer on the active team.
  const people = admins.data?.admins ?? [];
  const keep =
    task?.assignee && !people.some((p) => p.id === task.assignee?.id) ? [{ id: task.assignee.id, display_name: task.assignee.name }] : [];
  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label={task ? 'Edit task' : 'Add a task'}>
      <SelectField label="Type" value={type} onChange={(e) => setType(e.target.value as TaskType)}>
        {TASK_TYPES.map((value) => (
          <option key={value} value={value}>
            {TASK_TYPE_LABELS[value]}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Title"
        maxLength={TASK_TITLE_MAX}
        placeholder="Send the zoning report"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={errors.title}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label="Due date" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={errors.due_at} />
        <TextField label="Time" type="time" value={time} onChange={(e) => setTime(e.target.value)} />
      </div>
      <SelectField label="Assigned to" value={assignee} onChange={(e) => setAssignee(e.target.value)} error={errors.assignee_id}>
        <option value={NOBODY}>Nobody (everyone is told)</option>
        {[...keep, ...people].map((person) => (
          <option key={person.id} value={person.id}>
            {person.display_name}
          </option>
        ))}
      </SelectField>
      <FormActions busy={busy} label={task ? 'Save' : 'Add task'} busyLabel="Saving..." onCancel={onClose} />
    </form>
  );
}
