import { Button, Card, Container, Group, Select, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api';
import { PageHeader } from '../components/PageHeader';
import { allChartTypes } from '../viz/registry';
import { VIZ_TYPE_NAMES } from './viz-types';
import classes from './ChartAddScreen.module.css';

interface DatasetOption {
  id: number;
  table_name: string;
  schema: string | null;
  database: { database_name: string } | null;
}

interface ChartTypeChoice {
  key: string;
  name: string;
  description?: string;
  thumbnail?: string;
}

/** The types Explore registers; until its registry holds any, Superset's common types by name. */
function chartTypeChoices(): ChartTypeChoice[] {
  const plugins = allChartTypes();
  if (plugins.length) return plugins.map((p) => ({ key: p.key, name: p.name, description: p.description, thumbnail: p.thumbnail }));
  return Object.entries(VIZ_TYPE_NAMES)
    .filter(([key]) => key !== 'line' && key !== 'bar')
    .map(([key, name]) => ({ key, name }));
}

/** Explore's address for a new chart on a table dataset, as Superset's "Create new chart" builds it. */
export function newChartHref(datasetId: number, vizType: string): string {
  const params = new URLSearchParams({ datasource_id: String(datasetId), datasource_type: 'table', viz_type: vizType });
  return `/explore/?${params.toString()}`;
}

/** `/chart/add/`: choose a dataset and a chart type, then open Explore on them. */
export function ChartAddScreen() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [datasetId, setDatasetId] = useState<string | null>(null);
  const [vizType, setVizType] = useState<string>('table');
  const datasets = useQuery({
    queryKey: ['chart-add-datasets', debounced],
    queryFn: () =>
      api<{ result: DatasetOption[] }>('/api/v1/dataset/', {
        query: {
          q: {
            filters: debounced ? [{ col: 'table_name', opr: 'ct', value: debounced }] : [],
            order_column: 'table_name',
            order_direction: 'asc',
            page: 0,
            page_size: 100,
          },
        },
      }),
    placeholderData: keepPreviousData,
  });
  const options = (datasets.data?.result ?? []).map((d) => ({
    value: String(d.id),
    label: [d.database?.database_name, d.schema, d.table_name].filter(Boolean).join(' / ') || d.table_name,
  }));
  const types = chartTypeChoices();
  return (
    <Container size="lg" py="xl">
      <PageHeader title="Create a new chart" description="Pick the dataset the chart reads, and how it draws it. Explore opens with both chosen." />
      <Stack gap="lg">
        <Card>
          <Title order={4} mb={4}>
            1. Choose a dataset
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Charts read a dataset: a table or a saved query.{' '}
            <Text component={Link} to="/dataset/add/" size="sm" c="var(--mantine-primary-color-filled)">
              Add a dataset
            </Text>
          </Text>
          <Select
            aria-label="Dataset"
            placeholder="Search datasets"
            searchable
            clearable
            maw={520}
            data={options}
            value={datasetId}
            onChange={setDatasetId}
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options: all }) => all}
            nothingFoundMessage={datasets.isFetching ? 'Loading…' : 'No datasets match'}
          />
        </Card>
        <Card>
          <Title order={4} mb="sm">
            2. Choose a chart type
          </Title>
          <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm" role="radiogroup" aria-label="Chart type">
            {types.map((t) => (
              <UnstyledButton
                key={t.key}
                role="radio"
                aria-checked={vizType === t.key}
                data-checked={vizType === t.key || undefined}
                className={classes.type}
                onClick={() => setVizType(t.key)}
              >
                {t.thumbnail && <span className={classes.thumbnail} dangerouslySetInnerHTML={{ __html: t.thumbnail }} />}
                <Text size="sm" fw={500}>
                  {t.name}
                </Text>
              </UnstyledButton>
            ))}
          </SimpleGrid>
        </Card>
        <Group justify="flex-end">
          <Button component={Link} to="/chart/list/" variant="default">
            Back to charts
          </Button>
          {datasetId ? (
            <Button component="a" href={newChartHref(Number(datasetId), vizType)} rightSection={<IconArrowRight size={16} />}>
              Create new chart
            </Button>
          ) : (
            <Button disabled rightSection={<IconArrowRight size={16} />}>
              Create new chart
            </Button>
          )}
        </Group>
      </Stack>
    </Container>
  );
}
