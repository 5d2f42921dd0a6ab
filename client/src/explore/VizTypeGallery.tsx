import { Badge, Button, Group, Modal, NavLink, ScrollArea, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { allChartTypes, getChartMeta } from '../viz/registry';
import type { ChartMeta } from '../viz/types';
import classes from './explore.module.css';
import { VizThumbnail } from './VizThumbnail';

const RECENT_KEY = 'explore_recent_viz_types';
const RECENT_MAX = 6;

/** The chart types used most recently, newest first (kept in local storage). */
export function recentVizTypes(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((k) => typeof k === 'string' && getChartMeta(k)) : [];
  } catch {
    return [];
  }
}

export function rememberVizType(key: string): void {
  localStorage.setItem(RECENT_KEY, JSON.stringify([key, ...recentVizTypes().filter((k) => k !== key)].slice(0, RECENT_MAX)));
}


/** The viz type gallery: search, categories and tags, recently used first. */
export function VizTypeGallery({ opened, current, onClose, onSelect }: { opened: boolean; current: string; onClose: () => void; onSelect: (key: string) => void }) {
  const plugins = allChartTypes();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string>('Recommended');
  const [selected, setSelected] = useState(current);
  const recent = recentVizTypes();
  const categories = useMemo(() => [...new Set(plugins.map((p) => p.category))].sort(), [plugins]);
  const q = search.trim().toLowerCase();
  const shown = q
    ? plugins.filter((p) => p.name.toLowerCase().includes(q) || p.key.includes(q) || p.tags.some((t) => t.toLowerCase().includes(q)) || p.description.toLowerCase().includes(q))
    : category === 'Recommended'
      ? [...recent.map((k) => getChartMeta(k)!), ...plugins.filter((p) => !recent.includes(p.key) && p.tags.includes('Popular'))]
      : category === 'All charts'
        ? plugins
        : plugins.filter((p) => p.category === category);
  const chosen = getChartMeta(selected);
  const choose = (key: string) => {
    rememberVizType(key);
    onSelect(key);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Select a visualization type" size="80rem" centered>
      <Group align="stretch" gap="md" wrap="nowrap" h="60vh">
        <Stack gap={2} w={180} style={{ flexShrink: 0 }}>
          <TextInput size="xs" placeholder="Search all charts" aria-label="Search all charts" leftSection={<IconSearch size={14} />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} mb="xs" data-autofocus />
          {['Recommended', 'All charts', ...categories].map((c) => (
            <NavLink key={c} label={c} active={!q && category === c} onClick={() => { setSearch(''); setCategory(c); }} styles={{ root: { borderRadius: 4, padding: '4px 8px' } }} />
          ))}
        </Stack>
        <ScrollArea style={{ flex: 1 }} type="auto">
          {!q && category === 'Recommended' && recent.length > 0 && (
            <Text size="xs" c="dimmed" mb={6}>
              Recently used first
            </Text>
          )}
          <SimpleGrid cols={{ base: 3, md: 5 }} spacing="sm" role="radiogroup" aria-label="Chart types">
            {shown.map((p) => (
              <UnstyledButton
                key={p.key}
                role="radio"
                aria-checked={p.key === selected}
                aria-label={p.name}
                className={classes.vizTile}
                data-selected={p.key === selected || undefined}
                onClick={() => setSelected(p.key)}
                onDoubleClick={() => choose(p.key)}
              >
                <VizThumbnail plugin={p} size={88} />
                <Text size="xs" ta="center" fw={500} mt={6} lineClamp={2}>
                  {p.name}
                </Text>
              </UnstyledButton>
            ))}
          </SimpleGrid>
          {!shown.length && (
            <Text c="dimmed" ta="center" mt="xl">
              No chart types match your search
            </Text>
          )}
        </ScrollArea>
      </Group>
      {chosen && (
        <Group justify="space-between" align="flex-start" mt="md" pt="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} wrap="nowrap">
          <Stack gap={4} style={{ flex: 1 }}>
            <Text fw={600}>{chosen.name}</Text>
            <Group gap={4}>
              {chosen.tags.map((t) => (
                <Badge key={t} size="xs" variant="light" color="gray">
                  {t}
                </Badge>
              ))}
            </Group>
            <Text size="sm" c="dimmed">
              {chosen.description}
            </Text>
          </Stack>
          <Group gap="xs" wrap="nowrap">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => choose(chosen.key)}>Select</Button>
          </Group>
        </Group>
      )}
    </Modal>
  );
}
