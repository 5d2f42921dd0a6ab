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
  autoShown: boolean;
  editor: Ace.Editor | null;
  changeTimer: { isPending(): unknown; cancel(): void };
  updateCompletions(keepPopupPosition: boolean, options?: unknown): void;
  insertMatch(data?: unknown, options?: unknown): unknown;
  showPopup(editor: Ace.Editor, options?: unknown): void;
}

/**
 * Ace refreshes an open completion popup on a timer after each keystroke, and the browser runs key presses before
 * timers, so a quick burst of keys outruns it. Two things went wrong then, both fixed here:
 * - Enter accepted with the filter it last saw: "cleaned_sa" + Enter within one tick removed only "cleaned_s"
 *   before inserting the word, giving "ccleaned_sales_data". The filter is brought up to date first.
 * - A burst that crossed a word ("SELECT coun") filtered on both words, matched nothing and closed the popup; live
 *   autocomplete only opens on a key typed while no popup is open, so "coun" got no completions. When a live popup
 *   closes that way, it opens again for the word at the cursor, as it would have had the keys come slowly.
 */
function keepCompletionsInStepWithTyping(): void {
  const { Autocomplete } = ace.require('ace/autocomplete') as { Autocomplete: { prototype: AutocompleteInternals & { $meridianPatched?: boolean } } };
  // Called as a method: it reads its helpers through `this`.
  const util = ace.require('ace/autocomplete/util') as { getCompletionPrefix(editor: Ace.Editor): string };
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
  const updateCompletions = proto.updateCompletions;
  proto.updateCompletions = function (this: AutocompleteInternals, keepPopupPosition: boolean, options?: unknown) {
    const editor = this.editor;
    const live = this.autoShown;
    updateCompletions.call(this, keepPopupPosition, options);
    if (keepPopupPosition && live && !this.activated && editor && util.getCompletionPrefix(editor)) {
      this.autoShown = true;
      this.showPopup(editor);
    }
  };
}
keepCompletionsInStepWithTyping();

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
