import { Button, Group, type MantineSpacing } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';

/** A form modal's footer: Cancel (off while saving) and the submit button, which shows the save under way. */
export function FormActions({ onCancel, busy, submitLabel, mt = 'sm' }: { onCancel: () => void; busy: boolean; submitLabel: string; mt?: MantineSpacing }) {
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
