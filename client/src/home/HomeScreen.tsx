import { Anchor, Button, Card, Container, EmptyState, Group, Loader, SimpleGrid, Stack, Tabs, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import { useLocalStorage } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconChartBar, IconClock, IconDatabaseSearch, IconLayoutDashboard, IconTable, IconTerminal2 } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useBootstrap, useSessionUser } from '../auth/session';
import { errorOf } from '../trpc';
import { recentsQuery, sectionQuery, type HomeItem, type ListTab, type RecentsTab } from './home.queries';
import classes from './HomeScreen.module.css';

const KIND: Record<HomeItem['kind'], { label: string; icon: ReactNode; color: string }> = {
  chart: { label: 'Chart', icon: <IconChartBar size={18} />, color: 'grape' },
  dashboard: { label: 'Dashboard', icon: <IconLayoutDashboard size={18} />, color: 'teal' },
  saved_query: { label: 'Saved query', icon: <IconDatabaseSearch size={18} />, color: 'orange' },
  query: { label: 'Query', icon: <IconTerminal2 size={18} />, color: 'meridian' },
};

/** One recent or listed object: its kind as an icon (named for screen readers), its title, and when. */
function ItemTile({ item }: { item: HomeItem }) {
  const kind = KIND[item.kind];
  const isSql = item.kind === 'query';
  return (
    <UnstyledButton component="a" href={item.url} className={classes.tile} aria-label={`${kind.label}: ${item.title}`} title={item.title}>
      <ThemeIcon size={34} radius="md" variant="light" color={kind.color} aria-hidden>
        {kind.icon}
      </ThemeIcon>
      <div className={classes.tileText}>
        <Text size="sm" fw={500} truncate="end" ff={isSql ? 'monospace' : undefined}>
          {item.title}
        </Text>
        <Text size="xs" c="dimmed" truncate="end">
          {kind.label} · {item.when}
        </Text>
        {item.kind === 'saved_query' && item.sql && (
          <Text size="xs" c="dimmed" ff="monospace" truncate="end" mt={2}>
            {item.sql.replace(/\s+/g, ' ').trim()}
          </Text>
        )}
      </div>
    </UnstyledButton>
  );
}

interface Empty {
  title: string;
  description: string;
  action?: { label: string; to: string };
}

/** A tab's tiles, or its loader, error or empty state. */
function ItemGrid({ query, empty }: { query: { isPending: boolean; isError: boolean; error: unknown; data?: HomeItem[] }; empty: Empty }) {
  if (query.isPending) return <Loader size="sm" m="md" aria-label="Loading" />;
  if (query.isError)
    return (
      <Text c="red" size="sm" p="md">
        {errorOf(query.error).error}
      </Text>
    );
  if (!query.data?.length)
    return (
      <EmptyState py="lg" size="sm" title={empty.title} description={empty.description}>
        {empty.action && (
          <EmptyState.Actions>
            <Button component={Link} to={empty.action.to} variant="light" size="xs">
              {empty.action.label}
            </Button>
          </EmptyState.Actions>
        )}
      </EmptyState>
    );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="sm">
      {query.data.map((item) => (
        <ItemTile key={item.key} item={item} />
      ))}
    </SimpleGrid>
  );
}

/** A section of the home: a title, tabs (kept across visits, as Superset keeps them) and a "View all" link. */
function Section<T extends string>(props: { title: string; icon: ReactNode; tabs: readonly T[]; storageKey: string; viewAll?: string; children: (tab: T) => ReactNode }) {
  const [tab, setTab] = useLocalStorage<T>({ key: `meridian-home-${props.storageKey}`, defaultValue: props.tabs[0], getInitialValueInEffect: false });
  const active = props.tabs.includes(tab) ? tab : props.tabs[0];
  return (
    <Card component="section" aria-label={props.title}>
      <Tabs value={active} onChange={(value) => value && setTab(value as T)} variant="pills" radius="md" keepMounted={false}>
        <Group justify="space-between" wrap="nowrap" mb="md" gap="md">
          <Group gap="sm" wrap="nowrap">
            {props.icon}
            <Title order={4} style={{ whiteSpace: 'nowrap' }}>
              {props.title}
            </Title>
            <Tabs.List ml="xs">
              {props.tabs.map((t) => (
                <Tabs.Tab key={t} value={t} size="xs" px="sm" py={4}>
                  {t}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Group>
          {props.viewAll && (
            <Anchor component={Link} to={props.viewAll} size="sm" style={{ whiteSpace: 'nowrap' }}>
              View all
            </Anchor>
          )}
        </Group>
        {props.tabs.map((t) => (
          <Tabs.Panel key={t} value={t}>
            {props.children(t)}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  );
}

function RecentsPanel({ tab, userId }: { tab: RecentsTab; userId: number }) {
  const query = useQuery(recentsQuery(tab, userId));
  const empty: Record<RecentsTab, Empty> = {
    Viewed: { title: 'Nothing viewed yet', description: 'Charts and dashboards you open, and SQL you run, show up here.' },
    Edited: { title: 'Nothing edited yet', description: 'Charts and dashboards you change show up here.' },
    Created: { title: 'Nothing created yet', description: 'Charts, dashboards and saved queries you create show up here.' },
  };
  return <ItemGrid query={query} empty={empty[tab]} />;
}

function ListPanel({ section, tab, userId, empty }: { section: 'dashboard' | 'chart' | 'saved_query'; tab: ListTab; userId: number; empty: Record<ListTab, Empty> }) {
  const query = useQuery(sectionQuery(section, tab, userId));
  return <ItemGrid query={query} empty={empty[tab]} />;
}

const LIST_TABS = ['Favorite', 'Mine'] as const;
const RECENTS_TABS = ['Viewed', 'Edited', 'Created'] as const;

/**
 * Home (`/` and `/superset/welcome/`), as Superset's welcome page: Recents (viewed, edited, created), then
 * Dashboards, Charts and Saved queries, each with the user's favourites and their own.
 */
export function HomeScreen() {
  const { canSqlLab } = useBootstrap();
  const user = useSessionUser();
  const can = (perm: string, view: string) => hasPermission(user, perm, view);
  const sectionIcon = (icon: ReactNode) => (
    <ThemeIcon variant="transparent" c="dimmed" size="sm" aria-hidden>
      {icon}
    </ThemeIcon>
  );
  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1} fz={28}>
            Welcome{user.firstName ? `, ${user.firstName}` : ''}
          </Title>
          <Text c="dimmed" mt={4}>
            Pick up where you left off, or start something new.
          </Text>
        </div>

        <Section title="Recents" icon={sectionIcon(<IconClock size={20} stroke={1.7} />)} tabs={RECENTS_TABS} storageKey="recents">
          {(tab) => <RecentsPanel tab={tab} userId={user.userId} />}
        </Section>

        {can('can_read', 'Dashboard') && (
          <Section title="Dashboards" icon={sectionIcon(<IconLayoutDashboard size={20} stroke={1.7} />)} tabs={LIST_TABS} storageKey="dashboards" viewAll="/dashboard/list/">
            {(tab) => (
              <ListPanel
                section="dashboard"
                tab={tab}
                userId={user.userId}
                empty={{
                  Favorite: { title: 'No favorite dashboards yet', description: 'Star the dashboards you use most to find them here.', action: { label: 'See all dashboards', to: '/dashboard/list/' } },
                  Mine: { title: 'No dashboards yet', description: 'Dashboards you own show up here.', action: can('can_write', 'Dashboard') ? { label: 'New dashboard', to: '/dashboard/new/' } : undefined },
                }}
              />
            )}
          </Section>
        )}

        {can('can_read', 'Chart') && (
          <Section title="Charts" icon={sectionIcon(<IconChartBar size={20} stroke={1.7} />)} tabs={LIST_TABS} storageKey="charts" viewAll="/chart/list/">
            {(tab) => (
              <ListPanel
                section="chart"
                tab={tab}
                userId={user.userId}
                empty={{
                  Favorite: { title: 'No favorite charts yet', description: 'Star the charts you use most to find them here.', action: { label: 'See all charts', to: '/chart/list/' } },
                  Mine: { title: 'No charts yet', description: 'Charts you own show up here.', action: can('can_write', 'Chart') ? { label: 'New chart', to: '/chart/add/' } : undefined },
                }}
              />
            )}
          </Section>
        )}

        {can('can_read', 'SavedQuery') && (
          <Section title="Saved queries" icon={sectionIcon(<IconTable size={20} stroke={1.7} />)} tabs={LIST_TABS} storageKey="saved-queries" viewAll="/savedqueryview/list/">
            {(tab) => (
              <ListPanel
                section="saved_query"
                tab={tab}
                userId={user.userId}
                empty={{
                  Favorite: { title: 'No favorite saved queries yet', description: 'Saved queries you star show up here.', action: { label: 'See all saved queries', to: '/savedqueryview/list/' } },
                  Mine: { title: 'No saved queries yet', description: 'Queries you save in SQL Lab show up here.', action: canSqlLab ? { label: 'Open SQL Lab', to: '/sqllab/' } : undefined },
                }}
              />
            )}
          </Section>
        )}
      </Stack>
    </Container>
  );
}
