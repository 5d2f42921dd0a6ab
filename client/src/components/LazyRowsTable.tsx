import { Loader } from '@mantine/core';
import { lazy, Suspense, type ComponentProps } from 'react';

const RowsTableImpl = lazy(() => import('./RowsTable').then((m) => ({ default: m.RowsTable })));

/** RowsTable with its grid's code (TanStack Table and Virtual) loaded when rows are first shown, not with the screen. */
export function LazyRowsTable(props: ComponentProps<typeof RowsTableImpl>) {
  return (
    <Suspense fallback={<Loader size="sm" m="sm" />}>
      <RowsTableImpl {...props} />
    </Suspense>
  );
}
