import { Box, Center, Input, Loader } from '@mantine/core';
import { lazy, Suspense, useMemo } from 'react';
import type { CompletionWord } from '../sqllab/AceSqlEditor';
import type { DatasourceMeta } from '../viz/types';

// Ace loads with the first SQL expression edited, not with Explore.
const AceSqlEditor = lazy(() => import('../sqllab/AceSqlEditor'));
const noop = () => undefined;

/**
 * A SQL expression (custom SQL metric or filter) in the Ace editor: SQL highlighting and the dataset's
 * columns (and saved metrics, for metrics) offered as completions; the popup stays inside the editor so the
 * popover around it stays open when a completion is clicked.
 */
export function SqlExpressionEditor({ value, onChange, datasource, withMetrics = false, label, placeholder, editorKey }: { value: string; onChange: (sql: string) => void; datasource: DatasourceMeta | null; withMetrics?: boolean; label: string; placeholder?: string; editorKey: string }) {
  const words = useMemo<CompletionWord[]>(
    () => [
      ...(datasource?.columns ?? []).map((c) => ({ value: c.column_name, caption: c.column_name, kind: 'column' as const, meta: c.type ?? 'column' })),
      ...(withMetrics ? (datasource?.metrics ?? []).map((m) => ({ value: m.expression ?? m.metric_name, caption: m.metric_name, kind: 'column' as const, meta: 'metric' })) : []),
    ],
    [datasource, withMetrics],
  );
  return (
    <Input.Wrapper label={label} description={placeholder ? `e.g. ${placeholder}` : undefined}>
      <Box mt={4} data-testid="sql-expression-editor" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)', overflow: 'visible', position: 'relative' }}>
        <Suspense
          fallback={
            <Center h={110}>
              <Loader size="xs" />
            </Center>
          }
        >
          <AceSqlEditor editorKey={editorKey} value={value} height="110px" words={words} handlers={{}} onChange={onChange} onSelectionChange={noop} onCursorChange={noop} popupInside compact label={label} />
        </Suspense>
      </Box>
    </Input.Wrapper>
  );
}
