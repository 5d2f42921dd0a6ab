import { Modal, MultiSelect, PasswordInput, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { UserCreateSchema, UserUpdateSchema, type UserView } from '@meridian/contracts/schemas/security';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { schemaFieldErrors, serverFieldErrors, useFormFields } from '../components/form-fields';
import { addSuccessToast, toastError } from '../notify';
import { trpc } from '../trpc';
import { FormActions } from '../components/FormActions';

type Fields = { first_name: string; last_name: string; username: string; email: string; password: string; active: boolean; roles: string[] };

const emptyFields: Fields = { first_name: '', last_name: '', username: '', email: '', password: '', active: true, roles: [] };

const fieldsOf = (user: UserView): Fields => ({
  first_name: user.first_name,
  last_name: user.last_name,
  username: user.username,
  email: user.email,
  password: '',
  active: user.active,
  roles: user.roles.map((r) => String(r.id)),
});

/** Create a user, or edit one (`user` given): names, login, email, password, active flag and roles. */
export function UserFormModal({ opened, user, onClose, onSaved }: { opened: boolean; user: UserView | null; onClose: () => void; onSaved: () => void }) {
  const isEdit = user !== null;
  const { fields, errors, setErrors, set, text } = useFormFields<Fields>(user ? fieldsOf(user) : emptyFields);
  const roles = useQuery({ ...trpc.role.list.queryOptions({ page_size: 1000 }), enabled: opened });
  const create = useMutation(trpc.user.create.mutationOptions());
  const update = useMutation(trpc.user.update.mutationOptions());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { password, ...rest } = fields;
    const input = { ...rest, roles: fields.roles.map(Number), ...(password || !isEdit ? { password } : {}) };
    // Editing validates like creating (every field but the password stays required).
    const parsed = UserCreateSchema.safeParse(isEdit ? { ...input, password: password || 'unchanged' } : input);
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Fields>(parsed.error, { roles: 'Select at least one role.' }));
      return;
    }
    try {
      if (isEdit) {
        await update.mutateAsync({ id: user.id, changes: UserUpdateSchema.parse(input) });
        addSuccessToast(`Changes to ${fields.username} saved`);
      } else {
        await create.mutateAsync(parsed.data);
        addSuccessToast(`User ${fields.username} created`);
      }
      onSaved();
      onClose();
    } catch (error) {
      const fieldErrors = serverFieldErrors(error, emptyFields);
      if (fieldErrors) setErrors(fieldErrors);
      else toastError(error);
    }
  };

  const roleOptions = (roles.data?.result ?? []).map((r) => ({ value: String(r.id), label: r.name }));
  const busy = create.isPending || update.isPending;

  return (
    <Modal opened={opened} onClose={onClose} title={isEdit ? `Edit user ${user.username}` : 'Add user'} size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={isEdit ? 'Edit user' : 'Add user'}>
        <Stack gap="md">
          <SimpleGrid cols={2} spacing="md">
            <TextInput label="First name" required {...text('first_name')} data-autofocus />
            <TextInput label="Last name" required {...text('last_name')} />
          </SimpleGrid>
          <SimpleGrid cols={2} spacing="md">
            <TextInput label="Username" required autoComplete="off" {...text('username')} />
            <TextInput label="Email" type="email" required autoComplete="off" {...text('email')} />
          </SimpleGrid>
          <PasswordInput
            label="Password"
            required={!isEdit}
            description={isEdit ? 'Leave empty to keep the current password.' : undefined}
            autoComplete="new-password"
            {...text('password')}
          />
          <MultiSelect
            label="Roles"
            required
            placeholder={fields.roles.length ? undefined : 'Select roles'}
            data={roleOptions}
            value={fields.roles}
            error={errors.roles}
            onChange={(value) => set('roles', value)}
            searchable
            nothingFoundMessage="No roles"
            comboboxProps={{ withinPortal: true }}
          />
          <Switch label="Active" description="Inactive users cannot sign in." checked={fields.active} onChange={(e) => set('active', e.currentTarget.checked)} />
          <FormActions onCancel={onClose} busy={busy} submitLabel={isEdit ? 'Save' : 'Add user'} />
        </Stack>
      </form>
    </Modal>
  );
}
