/**
 * One theme: indigo-like "brand" as the single primary colour, medium radius, consistent
 * spacing. Component defaults are plain objects (not `Component.extend`), so the entry chunk
 * does not import Modal, Table or Tooltip just to configure them.
 */
import { createTheme, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#eef1ff', '#dbe0fd', '#b4bef6', '#8a99f0', '#6879eb', '#5264e8', '#4658e7', '#3748cd', '#2f3fb8', '#2335a3',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { brand },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  headings: { fontWeight: '650' },
  // Someone who asked their system for less motion gets none: menus, dropdowns, popovers and
  // collapses appear at once (recharts' charts follow the same setting by themselves). e2e/motion.spec.ts.
  respectReducedMotion: true,
  components: {
    TextInput: { defaultProps: { withAsterisk: false } },
    PasswordInput: { defaultProps: { withAsterisk: false } },
    Select: { defaultProps: { withAsterisk: false } },
    MultiSelect: { defaultProps: { withAsterisk: false } },
    NativeSelect: { defaultProps: { withAsterisk: false } },
    RadioGroup: { defaultProps: { withAsterisk: false } },
    Autocomplete: { defaultProps: { withAsterisk: false } },
    TagsInput: { defaultProps: { withAsterisk: false } },
    NumberInput: { defaultProps: { withAsterisk: false } },
    Textarea: { defaultProps: { withAsterisk: false } },
    Card: { defaultProps: { withBorder: true, radius: 'md', padding: 'lg' } },
    // The overlay dims without a backdrop blur: a blurred full-window backdrop is recomputed on
    // every repaint under it (a caret blinking in the dialog is enough), which cost a third of a
    // core for as long as a dialog stayed open in Chromium without GPU, against 3% without it.
    Modal: { defaultProps: { centered: true, radius: 'md', overlayProps: { backgroundOpacity: 0.45 } } },
    Table: { defaultProps: { verticalSpacing: 'sm', horizontalSpacing: 'md', highlightOnHover: true } },
    Tooltip: { defaultProps: { withArrow: true, openDelay: 150, multiline: true, maw: 280, events: { hover: true, focus: true, touch: true } } },
  },
});
