import { ActionIcon, Badge, Group, Menu, ScrollArea, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCalendar, IconDatabase, IconDots, IconHash, IconLetterCase, IconMathFunction, IconSearch, IconTable } from '@tabler/icons-react';
import { memo, useState } from 'react';
import { startDrag } from './controls/drag';
import type { ExploreDataset } from './explore.api';
import classes from './explore.module.css';

function typeIcon(type: string | null | undefined, isDttm?: boolean) {
  if (isDttm) return <IconCalendar size={14} />;
  if (type && /INT|NUM|DEC|FLOAT|DOUBLE|REAL/i.test(type)) return <IconHash size={14} />;
  return <IconLetterCase size={14} />;
}

/**
 * The dataset in use: its columns and metrics, searchable and draggable into the controls, with a
 * menu to edit the dataset, open its SQL in SQL Lab, view samples or swap to another dataset.
 */
export const DatasourcePanel = memo(function DatasourcePanel({ dataset, onEdit, onSwap, onSamples, onOpenInSqlLab }: { dataset: ExploreDataset | null; onEdit: () => void; onSwap: () => void; onSamples: () => void; onOpenInSqlLab: () => void }) {
  const [search, setSearch] = useState('');
  const q = search.trim().toLowerCase();
  const match = (...texts: Array<string | null | undefined>) => !q || texts.some((t) => t?.toLowerCase().includes(q));
  const metrics = (dataset?.metrics ?? []).filter((m) => match(m.metric_name, m.verbose_name));
  const columns = (dataset?.columns ?? []).filter((c) => match(c.column_name, c.verbose_name));
  return (
    <div className={classes.datasourcePanel} role="region" aria-label="Dataset">
      {/* The database line is part of the header, so the header's border runs below it, not through it. */}
      <div className={classes.datasourceHeader} data-testid="datasource-header">
        <Group justify="space-between" wrap="nowrap">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <IconTable size={16} />
            <Text fw={600} size="sm" truncate title={dataset?.table_name}>
              {dataset?.table_name ?? 'Missing dataset'}
            </Text>
            {dataset?.kind === 'virtual' && (
              <Badge size="xs" variant="light">
                virtual
              </Badge>
            )}
          </Group>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label="Dataset actions">
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={onEdit} disabled={!dataset}>
                Edit dataset
              </Menu.Item>
              <Menu.Item onClick={onSwap}>Swap dataset</Menu.Item>
              <Menu.Item onClick={onOpenInSqlLab} disabled={!dataset}>
                View in SQL Lab
              </Menu.Item>
              <Menu.Item onClick={onSamples} disabled={!dataset}>
                View samples
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        {dataset && (
          <Text size="xs" c="dimmed" truncate data-testid="datasource-database">
            <IconDatabase size={11} style={{ verticalAlign: -1 }} /> {dataset.database.database_name}
            {dataset.schema ? ` · ${dataset.schema}` : ''}
          </Text>
        )}
      </div>
      <TextInput size="xs" m="sm" placeholder="Search Metrics & Columns" aria-label="Search Metrics & Columns" leftSection={<IconSearch size={14} />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
      <ScrollArea className={classes.datasourceScroll} type="auto">
        <Stack gap={2} px="sm" pb="sm">
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt={4}>
            Metrics ({metrics.length})
          </Text>
          {metrics.map((m) => (
            <Tooltip key={m.metric_name} label={m.expression} openDelay={500} withinPortal>
              <div className={classes.datasourceItem} draggable onDragStart={(e) => startDrag(e, { kind: 'metric', name: m.metric_name })} data-testid="datasource-metric">
                <IconMathFunction size={14} />
                <Text size="xs" truncate>
                  {m.verbose_name || m.metric_name}
                </Text>
              </div>
            </Tooltip>
          ))}
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="sm">
            Columns ({columns.length})
          </Text>
          {columns.map((c) => (
            <div key={c.column_name} className={classes.datasourceItem} draggable onDragStart={(e) => startDrag(e, { kind: 'column', name: c.column_name })} title={c.type ?? undefined} data-testid="datasource-column">
              {typeIcon(c.type, c.is_dttm)}
              <Text size="xs" truncate>
                {c.verbose_name || c.column_name}
              </Text>
            </div>
          ))}
        </Stack>
      </ScrollArea>
    </div>
  );
});
