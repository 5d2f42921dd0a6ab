import { Pill, type ComboboxRenderPillInput } from '@mantine/core';
import { splitPastedText, truncateTag } from '@meridian/contracts/rules/select';
import type { ClipboardEvent } from 'react';

/**
 * Spec 01 §5's tag rule for Mantine's multi-value inputs (TagsInput, MultiSelect): a tag longer than 20 characters
 * is shortened with an ellipsis, the whole in its title. (At most 4 tags while the input is not in use, the rest as
 * '+ N ...', is global.css's, for every such input.)
 */
export function renderSelectTag({ option, onRemove, disabled }: ComboboxRenderPillInput) {
  return (
    <Pill withRemoveButton={!disabled} onRemove={onRemove} disabled={disabled} title={option.label}>
      {truncateTag(option.label)}
    </Pill>
  );
}

/**
 * Pasting into a multi-value select (spec 01 §5): the text splits on comma, newline, tab and semicolon, and each
 * piece that is one of the options is chosen, added to `current`. Text of one piece is left to search with.
 */
export function pasteChoices(current: readonly string[], options: ReadonlySet<string>, choose: (values: string[]) => void) {
  return (event: ClipboardEvent<HTMLInputElement>) => {
    const pieces = splitPastedText(event.clipboardData.getData('text'));
    if (pieces.length < 2) return;
    event.preventDefault();
    choose([...new Set([...current, ...pieces.filter((piece) => options.has(piece))])]);
  };
}
