import { Alert, Button, Code, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ApiError } from '../api';
import { addSuccessToast } from '../notify';

interface Embedded {
  uuid: string;
  allowed_domains: string[];
}

/** Superset's "Embed dashboard" modal: turn embedding on with its allowed domains, change them, or turn it off. */
export function EmbedModal({ dashboardId, opened, onClose }: { dashboardId: number; opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const key = ['dashboard-embedded', dashboardId];
  const current = useQuery({
    queryKey: key,
    enabled: opened,
    retry: false,
    // Not embedded yet is a 404: an empty answer, not an error.
    queryFn: () => api<{ result: Embedded }>(`/api/v1/dashboard/${dashboardId}/embedded`).then((a) => a.result, (e) => (e instanceof ApiError && e.status === 404 ? null : Promise.reject(e))),
  });
  const [domains, setDomains] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => setDomains(current.data?.allowed_domains.join(', ') ?? ''), [current.data]);
  const run = async (method: 'POST' | 'DELETE') => {
    setBusy(true);
    setError('');
    try {
      const allowed = domains.split(',').map((d) => d.trim()).filter(Boolean);
      await api(`/api/v1/dashboard/${dashboardId}/embedded`, method === 'POST' ? { method, body: { allowed_domains: allowed } } : { method });
      addSuccessToast(method === 'POST' ? 'Changes saved.' : 'Embedding deactivated.');
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Embed dashboard" size="lg">
      {current.isLoading ? (
        <Loader size="sm" />
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            {current.data ? 'This dashboard is ready to embed. In your application, pass the following id to the SDK:' : 'Configure this dashboard to embed it into an external web application.'}
          </Text>
          {current.data && <Code data-testid="embedded-uuid">{current.data.uuid}</Code>}
          <TextInput label="Allowed domains (comma separated)" description="A list of domain names that can embed this dashboard. Leaving this field empty will allow embedding from any domain." placeholder="superset.example.com" value={domains} onChange={(e) => setDomains(e.currentTarget.value)} />
          {error && (
            <Alert color="red" variant="light">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {CANCEL}
            </Button>
            {current.data && (
              <Button color="red" variant="light" onClick={() => void run('DELETE')} loading={busy}>
                Deactivate
              </Button>
            )}
            <Button onClick={() => void run('POST')} loading={busy}>
              {current.data ? 'Save changes' : 'Enable embedding'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
