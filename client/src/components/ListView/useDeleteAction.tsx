import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { api } from '../../api';
import { addSuccessToast, toastError } from '../../notify';
import { ConfirmModal } from '../ConfirmModal';
import { RowAction } from './cells';
import type { ListViewBulkAction } from './ListView';
import { listKey } from './list-query';

export interface DeleteActionOptions<T> {
  /** The REST list shown (refreshed after a delete); also the default delete call `DELETE <endpoint>?q=!(ids)`. */
  endpoint: string;
  /** Plural of what is deleted, in the texts: "the 2 selected charts", "Deleted 2 charts". */
  noun: string;
  /** A row's name in the texts: "Are you sure you want to delete <name>?", "Deleted: <name>". */
  nameOf: (row: T) => string;
  /** Deletes the rows, all or none (default: Superset's bulk delete on `endpoint`). */
  remove?: (rows: T[]) => Promise<unknown>;
  /** Deletes row by row instead: the rows deleted are reported in one toast, each failure in its own. */
  removeEach?: (row: T) => Promise<unknown>;
  /** Confirmation title (default 'Please confirm'). */
  title?: string;
  /** Confirmation text (default "Are you sure you want to delete …?"). */
  question?: (rows: T[]) => string;
  /** The user types "DELETE" before deleting (Superset's delete modal on the dashboards list). */
  typeToConfirm?: boolean;
  /** Success text when the one row asked for is deleted (default "Deleted: <name>"). */
  deletedOne?: (row: T) => string;
}

/**
 * Deleting rows of a list view: asks for confirmation, deletes, toasts the outcome and refreshes the list.
 * `confirm(rows)` opens the confirmation; `modal` must be rendered; `bulkAction` and `rowAction(row)` are the list's Delete buttons.
 */
export function useDeleteAction<T extends { id: number }>(options: DeleteActionOptions<T>): {
  confirm: (rows: T[]) => void;
  bulkAction: ListViewBulkAction<T>;
  rowAction: (row: T) => ReactNode;
  modal: ReactNode;
} {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<T[] | null>(null);
  // The latest options, read when an action runs, so the returned callbacks stay stable across renders.
  const opts = useRef(options);
  opts.current = options;

  const run = async (rows: T[]) => {
    const { endpoint, noun, nameOf, remove, removeEach, deletedOne } = opts.current;
    const deletedText = (count: number) => (count === 1 && rows.length === 1 ? (deletedOne ? deletedOne(rows[0]) : `Deleted: ${nameOf(rows[0])}`) : `Deleted ${count} ${noun}`);
    if (removeEach) {
      const results = await Promise.allSettled(rows.map((row) => removeEach(row)));
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      const deleted = results.length - failed.length;
      if (deleted) addSuccessToast(deletedText(deleted));
      failed.forEach((f) => toastError(f.reason));
    } else {
      try {
        await (remove ? remove(rows) : api(endpoint, { method: 'DELETE', query: { q: rows.map((r) => r.id) } }));
        addSuccessToast(deletedText(rows.length));
      } catch (error) {
        toastError(error);
      }
    }
    await queryClient.invalidateQueries({ queryKey: listKey(endpoint) });
  };

  const stable = useMemo(
    () => ({
      confirm: (rows: T[]) => setPending(rows),
      bulkAction: { key: 'delete', label: 'Delete', color: 'red', onAction: (rows: T[]) => setPending(rows) } satisfies ListViewBulkAction<T>,
      rowAction: (row: T) => (
        <RowAction label="Delete" color="red" ariaLabel={`Delete ${opts.current.nameOf(row)}`} icon={<IconTrash size={16} />} onClick={() => setPending([row])} />
      ),
    }),
    [],
  );

  const { title = 'Please confirm', question, nameOf, noun, typeToConfirm } = options;
  const text = !pending
    ? ''
    : question
      ? question(pending)
      : pending.length === 1
        ? `Are you sure you want to delete ${nameOf(pending[0])}?`
        : `Are you sure you want to delete the ${pending.length} selected ${noun}?`;
  const modal = (
    <ConfirmModal opened={!!pending} title={title} confirmLabel="Delete" onClose={() => setPending(null)} onConfirm={() => run(pending ?? [])} typeToConfirm={typeToConfirm ? 'DELETE' : undefined}>
      {text}
    </ConfirmModal>
  );
  return { ...stable, modal };
}
