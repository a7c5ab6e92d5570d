import { Plus } from '#client/components/icons.tsx';
import { useEffect, useState } from 'react';
import type { Lead } from '#shared/schemas/lead';
import { ConfirmDialog, lazyDialog } from '#client/components/ui/lazy-dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useDeleteLead } from './api/delete-lead.ts';
import { PAGE_SIZE, useLeads } from './api/get-leads.ts';
import { LeadFilters } from './components/lead-filters.tsx';
import { LeadsTable } from './components/leads-table.tsx';
import { Pagination } from './components/pagination.tsx';
import { DELETE_LEAD_CONFIRMATION } from './lead-texts.ts';
import { useLeadListView } from './use-lead-list-view.ts';

const AddLeadDialog = lazyDialog(() => import('./components/add-lead-dialog.tsx').then((m) => m.AddLeadDialog), (p) => p.open);
const EditLeadDialog = lazyDialog(() => import('./components/edit-lead-dialog.tsx').then((m) => m.EditLeadDialog), (p) => p.leadId !== null);

/** /dashboard/leads: search, filter, page through, add, edit, delete and export leads. */
export function LeadsPage() {
  const { view, searchText, setSearchText, setStatus, setPropertyType, setPage } = useLeadListView();
  const leads = useLeads(view);
  const deleteLead = useDeleteLead();
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Lead | null>(null);

  useEffect(() => {
    if (!leads.isError) return;
    console.error('Loading leads failed', leads.error);
    toast.error('Failed to load leads');
  }, [leads.isError, leads.error, leads.errorUpdatedAt]);

  const confirmDelete = () => {
    if (!deleting) return;
    deleteLead.mutate(deleting.id, {
      onSuccess: () => toast.success('Lead deleted successfully'),
      onError: (error) => {
        console.error('Deleting the lead failed', error);
        toast.error('Failed to delete lead');
      },
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <section aria-labelledby="leads-heading" className="space-y-5">
      {/* The button sits by the heading, not at the far right, where toasts appear over it. */}
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <h1 id="leads-heading" className="text-2xl font-bold text-slate-900">
          Leads
        </h1>
        <button
          type="button"
          onClick={() => setAdding(true)}
          className="inline-flex items-center gap-2 rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-blue-800"
        >
          <Plus aria-hidden="true" className="size-4" />
          Add Lead
        </button>
      </div>
      <LeadFilters view={view} searchText={searchText} onSearchText={setSearchText} onStatus={setStatus} onPropertyType={setPropertyType} />
      {leads.data ? (
        <>
          <LeadsTable
            leads={leads.data.leads}
            busy={leads.isPlaceholderData}
            onEdit={(lead) => setEditingId(lead.id)}
            onDelete={(lead) => setDeleting(lead)}
          />
          <Pagination page={view.page} pageSize={leads.data.page_size || PAGE_SIZE} total={leads.data.total} onPage={setPage} />
        </>
      ) : leads.isPending ? (
        <Spinner className="py-16" label="Loading leads..." />
      ) : (
        <p className="rounded-lg border border-slate-200 bg-white px-4 py-10 text-center text-slate-500">No leads found</p>
      )}
      <AddLeadDialog open={adding} onOpenChange={setAdding} />
      <EditLeadDialog leadId={editingId} onClose={() => setEditingId(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete lead"
        description={DELETE_LEAD_CONFIRMATION}
        confirmLabel="Delete"
        busy={deleteLead.isPending}
        onConfirm={confirmDelete}
      />
    </section>
  );
}
