import ace from './ace-setup';
import 'ace-builds/src-noconflict/mode-sql';
import 'ace-builds/src-noconflict/snippets/sql';
import 'ace-builds/src-noconflict/theme-sqlserver';
import 'ace-builds/src-noconflict/theme-tomorrow_night';
import 'ace-builds/src-noconflict/ext-language_tools';
import 'ace-builds/src-noconflict/ext-searchbox';
import { useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import AceEditor from 'react-ace';
import type { Ace } from 'ace-builds';
import { rankCompletions, type CompletionKind } from '@meridian/contracts/sqllab/completion';
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

/** A completion word: what is inserted (`value`), what the popup lists (`caption`), its kind and the kind's label (`meta`). */
export interface CompletionWord {
  value: string;
  caption: string;
  kind: CompletionKind;
  meta: string;
}

export interface AceSqlEditorProps {
  value: string;
  onChange: (sql: string) => void;
  onSelectionChange: (selected: string) => void;
  onCursorChange: (row: number, column: number) => void;
  cursorPosition?: { row: number; column: number };
  words: CompletionWord[];
  /** A row (0-based) to mark as the database's error, with the message shown on its gutter icon. */
  errorMark?: { row: number; text: string } | null;
  handlers: Partial<Record<ShortcutName, () => void>>;
  height: string;
  editorKey: string;
  /** The completion popup inside the editor's own box instead of the page's body (inside a popover, a click on it
   * must not count as a click outside). */
  popupInside?: boolean;
  /** Accessible name of the text area. */
  label?: string;
  /** No line numbers (one-line SQL expressions). */
  compact?: boolean;
}

/** The SQL text editor (react-ace): SQL mode, light/dark theme with the app, live autocomplete of the tab's database. */
export default function AceSqlEditor(props: AceSqlEditorProps) {
  const scheme = useComputedColorScheme('light');
  const editorRef = useRef<Ace.Editor | null>(null);
  // Set once Ace is ready, so effects that need the editor run again then.
  const [loadedEditor, setLoadedEditor] = useState<Ace.Editor | null>(null);
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

  // Words that arrive while the popup is open (the columns of a table just named, fetched meanwhile) are offered at
  // once: Ace would otherwise keep narrowing the list it gathered when the popup opened.
  useEffect(() => {
    const completer = (loadedEditor as unknown as { completer?: { activated?: boolean; updateCompletions(keep: boolean): void } } | null)?.completer;
    if (completer?.activated) completer.updateCompletions(false);
  }, [props.words, loadedEditor]);

  // The database's error line: a gutter annotation and a full-line marker, removed when the mark goes.
  const markRow = props.errorMark?.row;
  const markText = props.errorMark?.text;
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || markRow === undefined) return;
    const session = editor.getSession();
    const Range = (ace.require('ace/range') as { Range: new (r1: number, c1: number, r2: number, c2: number) => Ace.Range }).Range;
    session.setAnnotations([{ row: markRow, column: 0, text: markText ?? '', type: 'error' }]);
    const marker = session.addMarker(new Range(markRow, 0, markRow, 1), 'ace-error-line', 'fullLine', false);
    return () => {
      session.removeMarker(marker);
      session.clearAnnotations();
    };
  }, [markRow, markText, loadedEditor]);

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
        setLoadedEditor(editor);
        if (props.label) editor.textInput.getElement().setAttribute('aria-label', props.label);
        if (props.popupInside) {
          // Ace makes its popup in `parentNode` (the page's body unless set) when it first shows it.
          const { Autocomplete } = ace.require('ace/autocomplete') as { Autocomplete: { for(editor: Ace.Editor): { parentNode?: HTMLElement } } };
          Autocomplete.for(editor).parentNode = editor.container;
        }
        const completer: Ace.Completer = {
          identifierRegexps: [/[a-zA-Z_0-9.$\-\u00A2-\uFFFF]/],
          getCompletions: (_editor, _session, _pos, prefix, callback) => {
            // Tables and columns first, then functions, then keywords; the popup keeps this order as typing narrows it.
            const typed = prefix.split('.').pop() ?? '';
            callback(
              null,
              rankCompletions(wordsRef.current, typed).map((word) => ({ caption: word.caption, value: word.value, meta: word.meta, score: word.score })),
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
      setOptions={{ useWorker: false, showLineNumbers: !props.compact, showGutter: !props.compact, tabSize: 2, fontFamily: 'var(--mantine-font-family-monospace)' }}
    />
  );
}
