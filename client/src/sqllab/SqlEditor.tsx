import { Center, Loader } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { INITIAL_NORTH_PERCENT } from '@meridian/contracts/rules/constants';
import { errorRowInEditor, queryErrorDetails, referencedTableNames, sqlLabActions, type QueryEditor } from '@meridian/contracts/sqllab/index';
import type { CompletionWord } from './AceSqlEditor';
import { EditorToolbar } from './EditorToolbar';
import { LeftBar } from './LeftBar';
import { SouthPane } from './SouthPane';
import { useSqlLabController } from './SqlLabScreen';
import { SQL_FUNCTIONS, SQL_KEYWORDS } from './sql-words';
import { statementAtCursor } from './sqllab.controller';
import { useSchemas, useTables, useTablesMetadata } from './sqllab.queries';
import { useSqlLabState } from './sqllab.store';
import type { ShortcutName } from './shortcuts';
import classes from './sqllab.module.css';

const AceSqlEditor = lazy(() => import('./AceSqlEditor'));

const TOOLBAR_HEIGHT = 50;
const HANDLE_HEIGHT = 9;

/** One editor tab: left bar, toolbar, SQL editor and the south pane, split by a drag handle. */
export function SqlEditor({ editor }: { editor: QueryEditor }) {
  const controller = useSqlLabController();
  const state = useSqlLabState();
  const { ref: mainRef, height: mainHeight } = useElementSize();
  const [dragPercent, setDragPercent] = useState<number | null>(null);
  const dragging = useRef(false);

  const northPercent = dragPercent ?? editor.northPercent ?? INITIAL_NORTH_PERCENT + 10;
  const northHeight = Math.max(120, Math.round(((mainHeight || 600) * northPercent) / 100));
  const southHeight = Math.max(100, (mainHeight || 600) - northHeight - HANDLE_HEIGHT);
  // The toolbar wraps to two rows on a narrow screen: the editor takes what it leaves.
  const { ref: toolbarRef, height: toolbarHeight } = useElementSize();
  const aceHeight = Math.max(60, northHeight - (toolbarHeight ? toolbarHeight + 3 : TOOLBAR_HEIGHT));

  // Autocomplete words: keywords, functions, schemas, tables and columns of this tab's database.
  const schemas = useSchemas(editor.dbId, editor.catalog);
  const tables = useTables(editor.dbId, editor.schema, editor.catalog);
  const tableNames = useMemo(() => new Set((tables.data?.result ?? []).map((t) => t.value)), [tables.data]);
  // Columns of the tables the SQL names (anywhere in it, so a select list typed before FROM gets them too).
  const referenced = useMemo(() => referencedTableNames(editor.sql).filter((name) => tableNames.has(name)).slice(0, 8), [editor.sql, tableNames]);
  const metadata = useTablesMetadata(editor.dbId, editor.schema, editor.catalog, referenced);
  const browsedTables = state.tables.filter((t) => t.queryEditorId === (editor.tabViewId ?? editor.id));
  const metadataKey = metadata.map((m) => m.dataUpdatedAt).join(',');
  const browsedKey = browsedTables.map((t) => `${t.id}:${t.columns?.length ?? 0}`).join(',');
  const words = useMemo<CompletionWord[]>(() => {
    const list: CompletionWord[] = [
      ...SQL_KEYWORDS.map((value) => ({ value, caption: value, kind: 'keyword' as const, meta: 'keyword' })),
      ...SQL_FUNCTIONS.map((value) => ({ value: `${value}()`, caption: value, kind: 'function' as const, meta: 'function' })),
      ...(schemas.data ?? []).map((value) => ({ value, caption: value, kind: 'schema' as const, meta: 'schema' })),
      ...[...tableNames].map((value) => ({ value, caption: value, kind: 'table' as const, meta: 'table' })),
    ];
    const seen = new Set<string>();
    const columnSources = [
      ...metadata.flatMap((m) => (m.data ? [{ table: m.data.name, columns: m.data.columns }] : [])),
      ...browsedTables.map((t) => ({ table: t.name, columns: (t.columns ?? []) as { name: string; type: string }[] })),
    ];
    for (const source of columnSources) {
      for (const column of source.columns) {
        if (seen.has(column.name)) continue;
        seen.add(column.name);
        list.push({ value: column.name, caption: column.name, kind: 'column', meta: `column · ${String(column.type ?? '').toLowerCase()}` });
      }
    }
    return list;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schemas.data, tableNames, metadataKey, browsedKey]);

  // The line a failed query's database pointed at, marked in the editor while the editor still holds that SQL.
  const latest = editor.latestQueryId ? state.queries[editor.latestQueryId] : undefined;
  const errorMark = useMemo(() => {
    if (!latest || latest.state !== 'failed') return null;
    const { line } = queryErrorDetails(latest);
    const row = line ? errorRowInEditor(editor.sql, latest.sql, line) : null;
    return row === null ? null : { row, text: String(latest.errorMessage ?? latest.errors?.[0]?.message ?? '') };
  }, [latest, editor.sql]);

  const id = editor.id;
  // A tab flagged autorun runs once when it is shown with a database set.
  useEffect(() => {
    controller.autorunTab(id);
  }, [controller, id, editor.autorun, editor.dbId, editor.loaded, editor.inLocalStorage]);

  const handlers = useMemo<Partial<Record<ShortcutName, () => void>>>(
    () => ({
      runQuery: () => void controller.runQuery({ editorId: id }),
      runStatement: () => {
        const current = controller.state;
        const qe = current.unsavedQueryEditor.id === id ? { ...current.queryEditors.find((q) => q.id === id), ...current.unsavedQueryEditor } : current.queryEditors.find((q) => q.id === id);
        const cursor = qe?.cursorPosition ?? { row: 0, column: 0 };
        void controller.runQuery({ editorId: id, sql: statementAtCursor(qe?.sql ?? '', cursor.row, cursor.column) });
      },
      stopQuery: () => void controller.stopQuery(),
      formatQuery: () => void controller.formatSql(id),
      newTab: () => controller.newTab(),
      nextTab: () => controller.cycle('next'),
      previousTab: () => controller.cycle('previous'),
      saveQuery: () => window.dispatchEvent(new CustomEvent('sqllab:save-query')),
    }),
    [controller, id],
  );

  const onDragStart = useCallback(
    (event: React.PointerEvent<HTMLDivElement>) => {
      const container = (event.currentTarget.parentElement as HTMLElement).getBoundingClientRect();
      dragging.current = true;
      event.currentTarget.setPointerCapture(event.pointerId);
      const onMove = (move: PointerEvent) => {
        const percent = ((move.clientY - container.top) / container.height) * 100;
        setDragPercent(Math.min(85, Math.max(15, percent)));
      };
      const onUp = (up: PointerEvent) => {
        window.removeEventListener('pointermove', onMove);
        window.removeEventListener('pointerup', onUp);
        dragging.current = false;
        const percent = Math.min(85, Math.max(15, ((up.clientY - container.top) / container.height) * 100));
        setDragPercent(null);
        controller.dispatch({ type: 'QUERY_EDITOR_PERSIST_HEIGHT', queryEditor: { id }, northPercent: Math.round(percent), southPercent: 100 - Math.round(percent), now: Date.now() });
      };
      window.addEventListener('pointermove', onMove);
      window.addEventListener('pointerup', onUp);
    },
    [controller, id],
  );

  return (
    <div className={classes.body}>
      {!editor.hideLeftBar && <LeftBar editor={editor} />}
      <div className={classes.main} ref={mainRef}>
        <div className={classes.north} style={{ height: northHeight }}>
          <div ref={toolbarRef}>
            <EditorToolbar editor={editor} />
          </div>
          <div className={classes.editorFrame} data-testid="sql-editor">
            <Suspense
              fallback={
                <Center h={aceHeight}>
                  <Loader size="sm" />
                </Center>
              }
            >
              <AceSqlEditor
                editorKey={id}
                value={editor.sql}
                height={`${aceHeight}px`}
                cursorPosition={editor.cursorPosition}
                words={words}
                errorMark={errorMark}
                handlers={handlers}
                onChange={(sql) => controller.dispatch(sqlLabActions.setSql({ id }, sql))}
                onSelectionChange={(selected) => {
                  const current = controller.state;
                  const before = current.unsavedQueryEditor.id === id ? current.unsavedQueryEditor.selectedText : current.queryEditors.find((q) => q.id === id)?.selectedText;
                  if ((before ?? '') !== selected) controller.dispatch(sqlLabActions.setSelectedText({ id }, selected || null));
                }}
                onCursorChange={(row, column) => controller.dispatch({ type: 'QUERY_EDITOR_SET_CURSOR_POSITION', queryEditor: { id }, position: { row, column }, now: Date.now() })}
              />
            </Suspense>
          </div>
        </div>
        <div
          className={classes.dragHandle}
          data-dragging={dragPercent !== null || undefined}
          onPointerDown={onDragStart}
          role="separator"
          aria-orientation="horizontal"
          aria-label="Resize editor and results"
          aria-valuenow={Math.round(northPercent)}
          data-testid="split-handle"
        />
        <div className={classes.south} style={{ height: southHeight }}>
          <SouthPane editor={editor} height={southHeight} />
        </div>
      </div>
    </div>
  );
}
