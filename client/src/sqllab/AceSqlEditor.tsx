import ace from './ace-setup';
import 'ace-builds/src-noconflict/mode-sql';
import 'ace-builds/src-noconflict/snippets/sql';
import 'ace-builds/src-noconflict/theme-sqlserver';
import 'ace-builds/src-noconflict/theme-tomorrow_night';
import 'ace-builds/src-noconflict/ext-language_tools';
import 'ace-builds/src-noconflict/ext-searchbox';
import { useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import AceEditor from 'react-ace';
import type { Ace } from 'ace-builds';
import { SHORTCUTS, type ShortcutName } from './shortcuts';

interface AutocompleteInternals {
  activated: boolean;
  changeTimer: { isPending(): unknown; cancel(): void };
  updateCompletions(keepPopupPosition: boolean): void;
  insertMatch(data?: unknown, options?: unknown): unknown;
}

/**
 * Ace refreshes the completion filter on a timer after each keystroke, and Enter accepts with the filter it last
 * saw: typing "cleaned_sa" and pressing Enter within that tick removed only "cleaned_s" before inserting the word,
 * giving "ccleaned_sales_data". Bring the filter up to date before a completion is inserted.
 */
function insertCompletionsWithCurrentPrefix(): void {
  const { Autocomplete } = ace.require('ace/autocomplete') as { Autocomplete: { prototype: AutocompleteInternals & { $meridianPatched?: boolean } } };
  const proto = Autocomplete.prototype;
  if (proto.$meridianPatched) return;
  proto.$meridianPatched = true;
  const insertMatch = proto.insertMatch;
  proto.insertMatch = function (this: AutocompleteInternals, data?: unknown, options?: unknown) {
    if (this.changeTimer.isPending()) {
      this.changeTimer.cancel();
      this.updateCompletions(true);
      // The typed text matches nothing any more: the popup closed, Enter is an ordinary key again.
      if (!this.activated) return false;
    }
    return insertMatch.call(this, data, options);
  };
}
insertCompletionsWithCurrentPrefix();

/** A completion word with its kind (keyword, function, schema, table, column), shown as Ace's meta. */
export interface CompletionWord {
  value: string;
  meta: string;
  score: number;
  caption?: string;
}

export interface AceSqlEditorProps {
  value: string;
  onChange: (sql: string) => void;
  onSelectionChange: (selected: string) => void;
  onCursorChange: (row: number, column: number) => void;
  cursorPosition?: { row: number; column: number };
  words: CompletionWord[];
  handlers: Partial<Record<ShortcutName, () => void>>;
  height: string;
  editorKey: string;
}

/** The SQL text editor (react-ace): SQL mode, light/dark theme with the app, live autocomplete of the tab's database. */
export default function AceSqlEditor(props: AceSqlEditorProps) {
  const scheme = useComputedColorScheme('light');
  const editorRef = useRef<Ace.Editor | null>(null);
  const wordsRef = useRef(props.words);
  wordsRef.current = props.words;
  const handlersRef = useRef(props.handlers);
  handlersRef.current = props.handlers;

  // Restore the cursor of the tab when it is shown.
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    if (props.cursorPosition) editor.moveCursorTo(props.cursorPosition.row, props.cursorPosition.column);
    editor.clearSelection();
    editor.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.editorKey]);

  const commands = SHORTCUTS.filter((s) => s.inEditor).map((shortcut) => ({
    name: shortcut.name,
    bindKey: { win: shortcut.win, mac: shortcut.mac },
    exec: () => handlersRef.current[shortcut.name]?.(),
  }));

  return (
    <AceEditor
      mode="sql"
      theme={scheme === 'dark' ? 'tomorrow_night' : 'sqlserver'}
      name={`ace-${props.editorKey}`}
      value={props.value}
      onChange={(value) => props.onChange(value)}
      onSelectionChange={(selection: Ace.Selection) => {
        const editor = editorRef.current;
        if (editor) props.onSelectionChange(editor.getSession().getTextRange(selection.getRange()));
      }}
      onCursorChange={(selection: Ace.Selection) => {
        const cursor = selection.getCursor();
        props.onCursorChange(cursor.row, cursor.column);
      }}
      onLoad={(editor) => {
        editorRef.current = editor;
        const completer: Ace.Completer = {
          identifierRegexps: [/[a-zA-Z_0-9.$\-\u00A2-\uFFFF]/],
          getCompletions: (_editor, _session, _pos, prefix, callback) => {
            const lower = prefix.toLowerCase().split('.').pop() ?? '';
            callback(
              null,
              wordsRef.current
                .filter((word) => word.value.toLowerCase().includes(lower))
                .map((word) => ({ caption: word.caption ?? word.value, value: word.value, meta: word.meta, score: word.score })),
            );
          },
        };
        (editor as unknown as { completers: Ace.Completer[] }).completers = [completer];
        if (props.cursorPosition) editor.moveCursorTo(props.cursorPosition.row, props.cursorPosition.column);
        editor.focus();
      }}
      commands={commands}
      width="100%"
      height={props.height}
      fontSize={13}
      showPrintMargin={false}
      highlightActiveLine
      wrapEnabled={false}
      enableBasicAutocompletion
      enableLiveAutocompletion
      editorProps={{ $blockScrolling: Infinity }}
      setOptions={{ useWorker: false, showLineNumbers: true, tabSize: 2, fontFamily: 'var(--mantine-font-family-monospace)' }}
    />
  );
}
