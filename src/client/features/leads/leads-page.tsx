import { Plus, Upload } from '#client/components/icons.tsx';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { BulkLeadRequest, Lead, LeadSort } from '#shared/schemas/lead';
import { ConfirmDialog, lazyDialog } from '#client/components/ui/lazy-dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useCurrentUser } from '#client/lib/auth.tsx';
import { useMediaQuery } from '#client/lib/use-media-query.ts';
import { useBulkLeads } from './api/bulk-leads.ts';
import { useAdmins } from '#client/lib/api/admins.ts';
import { PAGE_SIZE, defaultDirection, exportSelectedHref, useLeads } from './api/get-leads.ts';
import { BulkBar } from './components/bulk-bar.tsx';
import { LeadCards } from './components/lead-cards.tsx';
import { LeadFilters } from './components/lead-filters.tsx';
import { OriginFilterNote } from './components/origin-filter-note.tsx';
import { LeadsTable } from './components/leads-table.tsx';
import { Pagination } from './components/pagination.tsx';
import { useLeadListView } from './use-lead-list-view.ts';
import { useLeadSelection } from './use-lead-selection.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';

const AddLeadDialog = lazyDialog(
  () => import('./components/add-lead-dialog.tsx').then((m) => m.AddLeadDialog),
  (p) => p.open,
);
const EditLeadDialog = lazyDialog(
  () => import('./components/edit-lead-dialog.tsx').then((m) => m.EditLeadDialog),
  (p) => p.leadId !== null,
);
const DeleteLeadDialog = lazyDialog(
  () => import('./components/delete-lead-dialog.tsx').then((m) => m.DeleteLeadDialog),
  (p) => p.lead !== null,
);

/** "Delete 3 leads? This cannot be undone." */
export const bulkDeleteConfirmation = (count: number) => `Delete ${count === 1 ? '1 lead' : `${count} leads`}? This cannot be undone.`;
const leadsCount = (count: number) => (count === 1 ? '1 lead' : `${count} leads`);

/** /dashboard/leads: search, filter, sort, page through, add, edit, delete and export leads, and act on several at once. */
export function LeadsPage() {
  const {
    view,
    searchText,
    setSearchText,
    setStatus,
    setPropertyType,
    setOwner,
    setCreatedFrom,
    setCreatedTo,
    setSort,
    setPage,
    clearOrigin,
  } = useLeadListView();
  const leads = useLeads(view);
  const bulk = useBulkLeads();
  const me = useCurrentUser();
  const phone = useMediaQuery('(max-width: 639px)');
  const { page: _page, ...filters } = view;
  const selection = useLeadSelection(JSON.stringify(view));
  const rows = leads.data?.leads ?? [];
  // Only what is ticked and still on screen (a lead deleted meanwhile drops out).
  const chosen = rows.filter((lead) => selection.has(lead.id)).map((lead) => lead.id);
  const admins = useAdmins(chosen.length > 0);
  // How many the confirmation names, fixed when it opens.
  const [confirmingBulkDelete, setConfirmingBulkDelete] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Lead | null>(null);

  useEffect(() => {
    if (!leads.isError) return;
    console.error('Loading leads failed', leads.error);
    toast.error('Failed to load leads');
  }, [leads.isError, leads.error, leads.errorUpdatedAt]);

  const sortBy = (sort: LeadSort) => setSort(sort, sort === view.sort ? (view.dir === 'asc' ? 'desc' : 'asc') : defaultDirection(sort));

  const runBulk = (request: BulkLeadRequest) => {
    bulk.mutate(request, {
      onSuccess: ({ updated }) => {
        toast.success(`${leadsCount(updated)} ${request.action === 'delete' ? 'deleted' : 'updated'}.`);
        selection.clear();
      },
      onError: (error) => {
        console.error('The bulk action failed', error);
        toast.error(
          request.action === 'delete'
            ? 'The leads could not be deleted. Please try again.'
            : 'The leads could not be updated. Please try again.',
        );
      },
      onSettled: () => setConfirmingBulkDelete(null),
    });
  };

  // The same rows, selection and actions, as cards on a phone or as the table.
  const rowProps = {
    leads: rows,
    busy: leads.isPlaceholderData,
    selection,
    onEdit: (lead: Lead) => setEditingId(lead.id),
    onDelete: (lead: Lead) => setDeleting(lead),
    sort: view.sort,
    dir: view.dir,
  };

  return (
    <section aria-labelledby="leads-heading" className="space-y-5">
      {/* The button sits by the heading, not at the far right, where toasts appear over it. */}
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <h1 id="leads-heading" className="text-2xl font-bold text-slate-900">
          Leads
        </h1>
        <Button onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" className="size-4" />
          Add Lead
        </Button>
        <Link to="/dashboard/leads/import" className={buttonClass({ variant: 'secondary' })}>
          <Upload aria-hidden="true" className="size-4" />
          Import
        </Link>
      </div>
      <LeadFilters
        view={view}
        searchText={searchText}
        onSearchText={setSearchText}
        onStatus={setStatus}
        onPropertyType={setPropertyType}
        onOwner={setOwner}
        onCreatedFrom={setCreatedFrom}
        onCreatedTo={setCreatedTo}
      />
      <OriginFilterNote view={view} onClear={clearOrigin} />
      {chosen.length > 0 && (
        <BulkBar
          count={chosen.length}
          busy={bulk.isPending}
          admins={admins.data?.admins ?? []}
          exportHref={exportSelectedHref(chosen, filters)}
          onStatus={(status) => runBulk({ ids: chosen, action: 'status', status })}
          onAssign={(owner) => {
            const ownerId = owner === 'me' ? me?.id : owner;
            if (ownerId !== undefined) runBulk({ ids: chosen, action: 'assign', owner_id: ownerId });
          }}
          onDelete={() => setConfirmingBulkDelete(chosen.length)}
          onClear={selection.clear}
        />
      )}
      {leads.data ? (
        <>
          {phone ? <LeadCards {...rowProps} onSort={setSort} /> : <LeadsTable {...rowProps} onSort={sortBy} />}
          <Pagination page={view.page} pageSize={leads.data.page_size || PAGE_SIZE} total={leads.data.total} onPage={setPage} />
        </>
      ) : leads.isLoading ? (
        <Spinner className="py-16" label="Loading leads..." />
      ) : (
        <p className="rounded-lg border border-slate-200 bg-white px-4 py-10 text-center text-slate-500">No leads found</p>
      )}
      <AddLeadDialog open={adding} onOpenChange={setAdding} />
      <EditLeadDialog leadId={editingId} onClose={() => setEditingId(null)} />
      <DeleteLeadDialog lead={deleting} onClose={() => setDeleting(null)} />
      <ConfirmDialog
        open={confirmingBulkDelete !== null}
        onOpenChange={(open) => !open && setConfirmingBulkDelete(null)}
        title="Delete leads"
        description={bulkDeleteConfirmation(confirmingBulkDelete ?? chosen.length)}
        confirmLabel="Delete"
        busy={bulk.isPending}
        onConfirm={() => runBulk({ ids: chosen, action: 'delete' })}
      />
    </section>
  );
}
