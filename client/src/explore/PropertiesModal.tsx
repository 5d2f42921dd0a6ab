import { Button, Group, Loader, Modal, NumberInput, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../api';
import { personChoice, RelatedMultiSelect } from '../components/RelatedMultiSelect';
import { FOOTER_IN_VIEW_MODAL_STYLES, SCROLLING_FIELDS } from '../components/modal-layout';
import { addSuccessToast } from '../notify';

interface ChartProperties {
  slice_name: string;
  description: string | null;
  cache_timeout: number | null;
  certified_by: string | null;
  certification_details: string | null;
  owners: Array<{ id: number; first_name?: string; last_name?: string }>;
}

/** Superset's chart properties modal: name, description, certification, cache timeout and owners, saved with PUT /api/v1/chart/{id}. */
export function PropertiesModal({ sliceId, onClose, onSaved }: { sliceId: number; onClose: () => void; onSaved: (name: string) => void }) {
  const chart = useQuery({ queryKey: ['chart', sliceId], queryFn: () => api<{ result: ChartProperties }>(`/api/v1/chart/${sliceId}`) });
  return (
    // The fields scroll inside the body and the footer stays under them, on screen, in a short viewport.
    <Modal opened onClose={onClose} title="Edit Chart Properties" size="lg" styles={FOOTER_IN_VIEW_MODAL_STYLES}>
      {chart.data ? <PropertiesForm initial={chart.data.result} sliceId={sliceId} onClose={onClose} onSaved={onSaved} /> : <Loader size="sm" />}
    </Modal>
  );
}

function PropertiesForm({ initial, sliceId, onClose, onSaved }: { initial: ChartProperties; sliceId: number; onClose: () => void; onSaved: (name: string) => void }) {
  const [name, setName] = useState(initial.slice_name);
  const [description, setDescription] = useState(initial.description ?? '');
  const [certifiedBy, setCertifiedBy] = useState(initial.certified_by ?? '');
  const [details, setDetails] = useState(initial.certification_details ?? '');
  const [cacheTimeout, setCacheTimeout] = useState<number | string>(initial.cache_timeout ?? '');
  const [owners, setOwners] = useState(initial.owners.map((o) => String(o.id)));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [known] = useState(() => initial.owners.map(personChoice));
  const save = async () => {
    setBusy(true);
    setError('');
    try {
      await api(`/api/v1/chart/${sliceId}`, {
        method: 'PUT',
        body: { slice_name: name.trim(), description: description || null, certified_by: certifiedBy || null, certification_details: details || null, cache_timeout: cacheTimeout === '' ? null : Number(cacheTimeout), owners: owners.map(Number) },
      });
      addSuccessToast('Chart properties updated');
      onSaved(name.trim());
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm" style={{ flex: 1, minHeight: 0 }}>
      <Stack gap="sm" data-testid="properties-fields" style={SCROLLING_FIELDS}>
        <Title order={6}>Basic information</Title>
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Textarea label="Description" description="The description can be displayed as widget headers in the dashboard view. Supports markdown." autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <Title order={6} mt="xs">Certification</Title>
        <TextInput label="Certified by" description="Person or group that has certified this chart." value={certifiedBy} onChange={(e) => setCertifiedBy(e.currentTarget.value)} />
        <TextInput label="Certification details" description="Any additional detail to show in the certification tooltip." value={details} onChange={(e) => setDetails(e.currentTarget.value)} />
        <Title order={6} mt="xs">Configuration</Title>
        <NumberInput label="Cache timeout" description="Duration (in seconds) of the caching timeout for this chart. Set to -1 to bypass the cache." value={cacheTimeout} onChange={setCacheTimeout} allowDecimal={false} min={-1} />
        <Title order={6} mt="xs">Access</Title>
        <RelatedMultiSelect resource="chart" column="owners" label="Owners" description="A list of users who can alter the chart. Searchable by name or username." known={known} value={owners} onChange={setOwners} />
      </Stack>
      {error && (
        <Text c="red" size="sm">
          {error}
        </Text>
      )}
      <Group justify="flex-end" style={{ flex: 'none' }}>
        <Button variant="default" onClick={onClose} disabled={busy}>
          {CANCEL}
        </Button>
        <Button onClick={() => void save()} loading={busy} disabled={!name.trim()}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
