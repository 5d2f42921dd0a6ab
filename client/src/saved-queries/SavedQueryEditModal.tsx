import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import type { SavedQueryView } from '@meridian/contracts/schemas/saved-query';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { addSuccessToast, toastError } from '../notify';
import { trpc } from '../trpc';

/** Renames a saved query and edits its description (the SQL itself is edited in SQL Lab). */
export function SavedQueryEditModal({ query, onClose, onSaved }: { query: SavedQueryView; onClose: () => void; onSaved: () => void }) {
  const [label, setLabel] = useState(query.label);
  const [description, setDescription] = useState(query.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const update = useMutation(trpc.savedQuery.update.mutationOptions());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!label.trim()) {
      setError('Missing data for required field.');
      return;
    }
    try {
      await update.mutateAsync({ id: query.id, changes: { label: label.trim(), description: description.trim() || null } });
      addSuccessToast(`Changes to ${label.trim()} saved`);
      onSaved();
      onClose();
    } catch (e) {
      toastError(e);
    }
  };

  return (
    <Modal opened onClose={onClose} title="Edit saved query" size="md">
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Edit saved query">
        <Stack gap="md">
          <TextInput
            label="Name"
            required
            value={label}
            error={error}
            onChange={(e) => {
              setLabel(e.currentTarget.value);
              setError(null);
            }}
            data-autofocus
          />
          <Textarea label="Description" autosize minRows={3} maxRows={8} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Group justify="flex-end" gap="sm" mt="sm">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              {CANCEL}
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
