import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { CANCEL, OK } from '@meridian/contracts/messages';
import { useState, type ReactNode } from 'react';

/** A yes/no question before a destructive action; the confirm button shows progress until `onConfirm` settles. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel = OK,
  onConfirm,
  onClose,
  typeToConfirm,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  /** The primary button's label: 'OK' unless named (spec 01 §4). */
  confirmLabel?: string;
  onConfirm: () => Promise<void> | void;
  onClose: () => void;
  /** A word the user must type before the confirm button is enabled (Superset's delete modal asks for "DELETE"). */
  typeToConfirm?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [typed, setTyped] = useState('');
  const close = () => {
    setTyped('');
    onClose();
  };
  const typedEnough = !typeToConfirm || typed.trim().toUpperCase() === typeToConfirm.toUpperCase();
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      close();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={title} size="md">
      <Stack gap="lg">
        <Text size="sm">{children}</Text>
        {typeToConfirm && (
          <TextInput
            label={`Type "${typeToConfirm}" to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && typedEnough && !busy && void confirm()}
            data-autofocus
            data-testid="delete-confirm-input"
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={busy}>
            {CANCEL}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={busy} disabled={!typedEnough}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
