import { createTheme, localStorageColorSchemeManager, type MantineColorsTuple } from '@mantine/core';

/** The saved light/dark choice; index.html reads the same key before the first paint. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'meridian-color-scheme' });

const meridian: MantineColorsTuple = ['#e7f5ff', '#d0ebff', '#a5d8ff', '#74c0fc', '#4dabf7', '#339af0', '#228be6', '#1c7ed6', '#1971c2', '#1864ab'];

const systemFonts =
  '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"';

/** Meridian's Mantine theme: system fonts (no CDN), one primary colour, compact product density. */
export const theme = createTheme({
  primaryColor: 'meridian',
  colors: { meridian },
  fontFamily: systemFonts,
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontFamily: systemFonts, fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  respectReducedMotion: true,
  components: {
    Button: { defaultProps: { fw: 550 } },
    Card: { defaultProps: { withBorder: true, radius: 'md', padding: 'lg' } },
    Paper: { defaultProps: { radius: 'md' } },
    Modal: {
      defaultProps: { centered: true, overlayProps: { backgroundOpacity: 0.45, blur: 2 }, closeButtonProps: { 'aria-label': 'Close' } },
      styles: { title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } },
    },
    Drawer: {
      defaultProps: { overlayProps: { backgroundOpacity: 0.35 }, closeButtonProps: { 'aria-label': 'Close' } },
      styles: { title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } },
    },
    Tooltip: { defaultProps: { withArrow: true, openDelay: 300 } },
    // A closed select's options are not drawn: Mantine keeps them mounted, hidden, by default, so each select on
    // a screen rendered its whole list and placed it (a forced style read) on the first render.
    Combobox: { defaultProps: { keepMounted: false } },
    // The search field shares the line with the chosen values: Mantine keeps 100px for it and, when clearable, 50px
    // after the values for the clear button inside the input's own room for it, so one chosen name in a 220px box
    // (the native filter bar) wrapped the field onto a second line and the box grew twice as tall.
    MultiSelect: {
      styles: (_theme: unknown, props: { clearable?: boolean }) => ({ inputField: { minWidth: '2em' }, ...(props.clearable ? { pillsList: { paddingInlineEnd: 16 } } : {}) }),
    },
  },
});
