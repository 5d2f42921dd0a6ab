import { Modal, MultiSelect, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { RLS_FILTER_TYPES, RlsCreateSchema, type RlsFilterType } from '@meridian/contracts/schemas/rls';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api } from '../api';
import { schemaFieldErrors, serverFieldErrors, useFormFields } from '../components/form-fields';
import { addSuccessToast, toastError } from '../notify';
import { trpc } from '../trpc';
import { FormActions } from '../components/FormActions';

/** A rule as the list and GET answer it. */
export interface RlsRuleView {
  id: number;
  name: string;
  description: string | null;
  filter_type: RlsFilterType;
  tables: Array<{ id: number; table_name: string; schema?: string | null }>;
  roles: Array<{ id: number; name: string }>;
  clause: string;
  group_key: string | null;
  changed_on_delta_humanized?: string;
  changed_by?: { first_name: string; last_name: string } | null;
}

type Fields = { name: string; filter_type: RlsFilterType; tables: string[]; roles: string[]; group_key: string; clause: string; description: string };

const emptyFields: Fields = { name: '', filter_type: 'Regular', tables: [], roles: [], group_key: '', clause: '', description: '' };

const fieldsOf = (rule: RlsRuleView): Fields => ({
  name: rule.name,
  filter_type: rule.filter_type,
  tables: rule.tables.map((t) => String(t.id)),
  roles: rule.roles.map((r) => String(r.id)),
  group_key: rule.group_key ?? '',
  clause: rule.clause,
  description: rule.description ?? '',
});

const TYPE_HELP: Record<RlsFilterType, string> = {
  Regular: 'Regular filters add their clause to the queries of the users of the roles below.',
  Base: 'Base filters add their clause to everyone’s queries except the users of the roles below (for example Admin, so admins see all rows).',
};

/** Add a row-level security rule, or edit one (`rule` given). */
export function RlsFormModal({ rule, onClose, onSaved }: { rule: RlsRuleView | null; onClose: () => void; onSaved: () => void }) {
  const isEdit = rule !== null;
  const { fields, errors, setErrors, set, text } = useFormFields<Fields>(rule ? fieldsOf(rule) : emptyFields);
  const roles = useQuery(trpc.role.list.queryOptions({ page_size: 1000 }));
  const tables = useQuery({
    queryKey: ['rls-related-tables'],
    queryFn: () => api<{ result: Array<{ value: number; text: string }> }>('/api/v1/rowlevelsecurity/related/tables', { query: { q: { page_size: 1000 } } }),
  });
  const create = useMutation(trpc.rls.create.mutationOptions());
  const update = useMutation(trpc.rls.update.mutationOptions());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      name: fields.name,
      filter_type: fields.filter_type,
      tables: fields.tables.map(Number),
      roles: fields.roles.map(Number),
      group_key: fields.group_key.trim() || null,
      clause: fields.clause,
      description: fields.description.trim() || null,
    };
    const parsed = RlsCreateSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Fields>(parsed.error, { tables: 'Select at least one dataset.' }));
      return;
    }
    try {
      if (isEdit) await update.mutateAsync({ id: rule.id, changes: parsed.data });
      else await create.mutateAsync(parsed.data);
      addSuccessToast(isEdit ? `Changes to ${fields.name} saved` : `Rule ${fields.name} added`);
      onSaved();
      onClose();
    } catch (error) {
      const fieldErrors = serverFieldErrors(error, emptyFields);
      if (fieldErrors) setErrors(fieldErrors);
      else toastError(error);
    }
  };

  const busy = create.isPending || update.isPending;
  return (
    <Modal opened onClose={onClose} title={isEdit ? `Edit rule ${rule.name}` : 'Add rule'} size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={isEdit ? 'Edit rule' : 'Add rule'}>
        <Stack gap="md">
          <TextInput label="Rule name" required {...text('name')} data-autofocus />
          <Select
            label="Filter type"
            required
            allowDeselect={false}
            data={RLS_FILTER_TYPES.map((t) => ({ value: t, label: t }))}
            value={fields.filter_type}
            onChange={(v) => v && set('filter_type', v as RlsFilterType)}
            description={TYPE_HELP[fields.filter_type]}
            comboboxProps={{ withinPortal: true }}
          />
          <MultiSelect
            label="Datasets"
            required
            searchable
            placeholder={fields.tables.length ? undefined : 'Select datasets'}
            data={(tables.data?.result ?? []).map((t) => ({ value: String(t.value), label: t.text }))}
            value={fields.tables}
            error={errors.tables}
            onChange={(v) => set('tables', v)}
            nothingFoundMessage="No datasets"
            comboboxProps={{ withinPortal: true }}
          />
          <MultiSelect
            label="Roles"
            searchable
            placeholder={fields.roles.length ? undefined : 'Select roles'}
            description={fields.filter_type === 'Base' ? 'The roles the filter does not apply to.' : 'The roles the filter applies to.'}
            data={(roles.data?.result ?? []).map((r) => ({ value: String(r.id), label: r.name }))}
            value={fields.roles}
            error={errors.roles}
            onChange={(v) => set('roles', v)}
            nothingFoundMessage="No roles"
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            label="Group key"
            description="Filters with the same group key are ORed together; different groups are ANDed."
            {...text('group_key')}
          />
          <Textarea
            label="Clause"
            required
            autosize
            minRows={3}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            placeholder="region = 'North'"
            description="SQL added to the WHERE of every query of the datasets."
            {...text('clause')}
          />
          <Textarea label="Description" autosize minRows={2} {...text('description')} />
          <Text size="xs" c="dimmed">
            Rules apply to charts, dashboards, samples, filter values and reports. They do not apply to SQL Lab.
          </Text>
          <FormActions onCancel={onClose} busy={busy} submitLabel={isEdit ? 'Save' : 'Add'} />
        </Stack>
      </form>
    </Modal>
  );
}
