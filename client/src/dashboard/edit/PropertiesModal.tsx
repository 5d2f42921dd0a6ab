import { Button, Group, JsonInput, Modal, Select, Stack, TextInput } from '@mantine/core';
import { normalizeSlug, parseJsonMetadata } from '@meridian/contracts';
import { useEffect, useState } from 'react';
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
}

/** Edit properties: title, slug, certification, colour scheme and the JSON metadata (validated key by key before it is applied). */
export function PropertiesModal({ opened, value, onClose, onApply }: { opened: boolean; value: DashboardProperties; onClose: () => void; onApply: (next: DashboardProperties) => void }) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setDraft(value);
      setError(null);
    }
  }, [opened, value]);
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
    <Modal opened={opened} onClose={onClose} title="Dashboard properties" size="lg">
      <Stack>
        <TextInput label="Title" value={draft.dashboard_title} onChange={(e) => setDraft({ ...draft, dashboard_title: e.currentTarget.value })} />
        <TextInput label="URL slug" description="A readable address: /superset/dashboard/<slug>/" value={draft.slug ?? ''} onChange={(e) => setDraft({ ...draft, slug: e.currentTarget.value })} />
        <Group grow>
          <TextInput label="Certified by" value={draft.certified_by ?? ''} onChange={(e) => setDraft({ ...draft, certified_by: e.currentTarget.value })} />
          <TextInput label="Certification details" disabled={!draft.certified_by} value={draft.certification_details ?? ''} onChange={(e) => setDraft({ ...draft, certification_details: e.currentTarget.value })} />
        </Group>
        <Select
          label="Color scheme"
          description="Every chart of the dashboard draws with it"
          placeholder="Each chart's own"
          data={SCHEME_CHOICES}
          clearable
          disabled={!metadata}
          value={typeof metadata?.color_scheme === 'string' ? metadata.color_scheme : null}
          onChange={(scheme) => metadata && setDraft({ ...draft, json_metadata: JSON.stringify({ ...metadata, color_scheme: scheme ?? undefined }, null, 2) })}
          comboboxProps={{ withinPortal: true }}
        />
        <JsonInput label="JSON metadata" autosize minRows={6} maxRows={16} value={draft.json_metadata} onChange={(v) => setDraft({ ...draft, json_metadata: v })} error={error} formatOnBlur />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={apply}>Apply</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
