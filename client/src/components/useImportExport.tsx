import { Button } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiError, download } from '../api';
import { addDangerToast } from '../notify';
import { ImportModal, type ImportNoun } from './ImportModal';
import { listKey, type ListViewBulkAction } from './ListView';

/**
 * A list's Export bulk action (a zip of the selected rows in Superset's export layout) and its Import
 * button and modal, for one resource (`/api/v1/<resource>/`).
 */
export function useImportExport<T extends { id: number }>(noun: ImportNoun, endpoint: string): { exportAction: ListViewBulkAction<T>; importButton: ReactNode; modal: ReactNode } {
  const queryClient = useQueryClient();
  const [importing, setImporting] = useState(false);
  return {
    exportAction: {
      key: 'export',
      label: 'Export',
      onAction: async (rows: T[]) => {
        try {
          await download(`${endpoint}export/`, { q: rows.map((r) => r.id) });
        } catch (error) {
          addDangerToast(error instanceof ApiError ? error.message : 'Sorry, an error occurred');
        }
      },
    },
    importButton: (
      <Button variant="default" leftSection={<IconUpload size={16} />} onClick={() => setImporting(true)}>
        Import
      </Button>
    ),
    modal: <ImportModal opened={importing} onClose={() => setImporting(false)} noun={noun} endpoint={`${endpoint}import/`} onImported={() => void queryClient.invalidateQueries({ queryKey: listKey(endpoint) })} />,
  };
}
