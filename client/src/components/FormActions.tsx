import { Button, Group, type MantineSpacing } from '@mantine/core';
import { CANCEL, OK } from '@meridian/contracts/messages';

/** A form modal's footer: Cancel (off while saving) and the submit button ('OK' unless named, spec 01 §4), which shows the save under way. */
export function FormActions({ onCancel, busy, submitLabel = OK, mt = 'sm' }: { onCancel: () => void; busy: boolean; submitLabel?: string; mt?: MantineSpacing }) {
  return (
    <Group justify="flex-end" gap="sm" mt={mt}>
      <Button variant="default" onClick={onCancel} disabled={busy}>
        {CANCEL}
      </Button>
      <Button type="submit" loading={busy}>
        {submitLabel}
      </Button>
    </Group>
  );
}
