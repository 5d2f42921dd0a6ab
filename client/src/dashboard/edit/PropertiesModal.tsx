import { Button, Group, JsonInput, Modal, Select, Stack, TextInput } from '@mantine/core';
import { normalizeSlug, parseJsonMetadata } from '@meridian/contracts';
import { useEffect, useState } from 'react';
import { FOOTER_IN_VIEW_MODAL_STYLES, SCROLLING_FIELDS } from '../../components/modal-layout';
import { type Choice, RelatedMultiSelect } from '../../components/RelatedMultiSelect';
import { CATEGORICAL_SCHEMES } from '../../viz/shared/colors';

const SCHEME_CHOICES = CATEGORICAL_SCHEMES.map((s) => ({ value: s.id, label: s.label }));

/** The JSON metadata text as an object, or null while it does not parse. */
function metadataOf(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export interface DashboardProperties {
  dashboard_title: string;
  slug: string | null;
  certified_by: string | null;
  certification_details: string | null;
  json_metadata: string;
  /** User ids. */
  owners: number[];
  /** Role ids; offered, and saved, only with DASHBOARD_RBAC (spec 02 §5). */
  roles: number[];
}

/** A save's refusal by field (Superset's 422 `{"message": {"slug": ["Must be unique"]}}`), for the fields of this modal. */
export type PropertyErrors = Partial<Record<keyof DashboardProperties, string[]>>;

/** The refusal of a save that names fields of the properties modal, or null (another field, or no field map). */
export function propertyErrorsOf(message: unknown): PropertyErrors | null {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return null;
  const fields: Array<keyof DashboardProperties> = ['dashboard_title', 'slug', 'certified_by', 'certification_details', 'json_metadata', 'owners', 'roles'];
  const errors: PropertyErrors = {};
  for (const field of fields) {
    const said = (message as Record<string, unknown>)[field];
    if (said) errors[field] = (Array.isArray(said) ? said : [said]).map(String);
  }
  return Object.keys(errors).length ? errors : null;
}

/**
 * Edit properties: title, slug, owners (and roles with DASHBOARD_RBAC), certification, colour scheme and the JSON
 * metadata (validated key by key before it is applied). `errors` are the server's refusal of the last save, each shown
 * on its field until the field is changed. `known` names the owners and roles the dashboard has.
 */
export function PropertiesModal({ opened, value, known, rolesEnabled, errors, onClose, onApply }: { opened: boolean; value: DashboardProperties; known: { owners: Choice[]; roles: Choice[] }; rolesEnabled: boolean; errors?: PropertyErrors | null; onClose: () => void; onApply: (next: DashboardProperties) => void }) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<PropertyErrors>({});
  useEffect(() => {
    if (opened) {
      setDraft(value);
      setError(null);
      setRefused(errors ?? {});
    }
  }, [opened, value, errors]);
  const fieldError = (field: keyof DashboardProperties) => refused[field]?.join(' ') || undefined;
  const edit = (field: keyof DashboardProperties, next: string | null | number[]) => {
    setDraft((d) => ({ ...d, [field]: next }));
    if (refused[field]) setRefused(({ [field]: _gone, ...rest }) => rest);
  };
  // The colour scheme is one key of the JSON metadata, edited in either place.
  const metadata = metadataOf(draft.json_metadata);
  const apply = () => {
    const parsed = parseJsonMetadata(draft.json_metadata);
    if (!parsed.ok) {
      setError(Object.entries(parsed.errors).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; '));
      return;
    }
    onApply({ ...draft, slug: normalizeSlug(draft.slug), json_metadata: JSON.stringify(parsed.value, null, 2) });
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Dashboard properties" size="lg" styles={FOOTER_IN_VIEW_MODAL_STYLES}>
      <Stack style={SCROLLING_FIELDS} data-testid="dashboard-properties-fields">
        <TextInput label="Title" value={draft.dashboard_title} onChange={(e) => edit('dashboard_title', e.currentTarget.value)} error={fieldError('dashboard_title')} />
        <TextInput label="URL slug" description="A readable address: /superset/dashboard/<slug>/" value={draft.slug ?? ''} onChange={(e) => edit('slug', e.currentTarget.value)} error={fieldError('slug')} />
        <RelatedMultiSelect resource="dashboard" column="owners" label="Owners" description="Owners is a list of users who can alter the dashboard. Searchable by name or username." known={known.owners} value={draft.owners.map(String)} onChange={(v) => edit('owners', v.map(Number))} error={fieldError('owners')} />
        {rolesEnabled && (
          <RelatedMultiSelect
            resource="dashboard"
            column="roles"
            label="Roles"
            description="Roles is a list which defines access to the dashboard. Granting a role access to a dashboard will bypass dataset level checks. If no roles are defined, regular access permissions apply."
            known={known.roles}
            value={draft.roles.map(String)}
            onChange={(v) => edit('roles', v.map(Number))}
            error={fieldError('roles')}
          />
        )}
        <Group grow>
          <TextInput label="Certified by" value={draft.certified_by ?? ''} onChange={(e) => edit('certified_by', e.currentTarget.value)} error={fieldError('certified_by')} />
          <TextInput label="Certification details" disabled={!draft.certified_by} value={draft.certification_details ?? ''} onChange={(e) => edit('certification_details', e.currentTarget.value)} error={fieldError('certification_details')} />
        </Group>
        <Select
          label="Color scheme"
          description="Every chart of the dashboard draws with it"
          placeholder="Each chart's own"
          data={SCHEME_CHOICES}
          clearable
          disabled={!metadata}
          value={typeof metadata?.color_scheme === 'string' ? metadata.color_scheme : null}
          onChange={(scheme) => metadata && setDraft({ ...draft, json_metadata: JSON.stringify({ ...metadata, color_scheme: scheme ?? undefined, shared_label_colors: undefined }, null, 2) })}
          comboboxProps={{ withinPortal: true }}
        />
        <JsonInput label="JSON metadata" autosize minRows={6} maxRows={16} value={draft.json_metadata} onChange={(v) => edit('json_metadata', v)} error={error ?? fieldError('json_metadata')} formatOnBlur />
      </Stack>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={apply}>Apply</Button>
      </Group>
    </Modal>
  );
}
