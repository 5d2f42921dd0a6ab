import type { RecentActivity } from '@meridian/contracts';
import { Anchor, Badge, Button, Card, Container, EmptyState, Group, Loader, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconActivity, IconChartBar, IconLayoutDashboard, IconStar, IconTable, IconTerminal2 } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useBootstrap } from '../auth/session';
import { trpc } from '../trpc';
import classes from './HomeScreen.module.css';

const ITEM_LABELS: Record<string, string> = { query: 'Query', saved_query: 'Saved query', slice: 'Chart', dashboard: 'Dashboard' };


/** A list of recent items or favourites, each a link to where it opens. */
function ActivityList({ items, label }: { items: RecentActivity[]; label: string }) {
  return (
    <Stack gap={6} aria-label={label}>
      {items.map((item) => (
        <Group key={`${item.item_type}-${item.item_url}-${item.time}`} justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Badge variant="light" size="sm" radius="sm" w={92}>
              {ITEM_LABELS[item.item_type] ?? item.item_type}
            </Badge>
            <Anchor href={item.item_url} size="sm" truncate="end" ff={item.item_type === 'query' ? 'monospace' : undefined}>
              {item.item_title}
            </Anchor>
          </Group>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {item.time_delta_humanized}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

interface Shortcut {
  to: string;
  title: string;
  description: string;
  icon: ReactNode;
  color: string;
}

const SHORTCUTS: Shortcut[] = [
  { to: '/sqllab/', title: 'SQL Lab', description: 'Write and run SQL', icon: <IconTerminal2 size={20} />, color: 'meridian' },
  { to: '/chart/list/', title: 'Charts', description: 'Visualise your data', icon: <IconChartBar size={20} />, color: 'grape' },
  { to: '/dashboard/list/', title: 'Dashboards', description: 'Share a set of charts', icon: <IconLayoutDashboard size={20} />, color: 'teal' },
  { to: '/tablemodelview/list/', title: 'Datasets', description: 'Tables charts are built on', icon: <IconTable size={20} />, color: 'orange' },
];

function Section({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <Group gap="xs" mb="md">
        {icon}
        <Title order={4}>{title}</Title>
      </Group>
      {children}
    </Card>
  );
}

/** Home (`/` and `/superset/welcome/`): a welcome, shortcuts, the user's recent activity and favorites. */
export function HomeScreen() {
  const { user, canSqlLab } = useBootstrap();
  const shortcuts = SHORTCUTS.filter((s) => s.to !== '/sqllab/' || canSqlLab);
  const overview = useQuery(trpc.home.overview.queryOptions());
  const recent = overview.data?.recent ?? [];
  const favorites = overview.data?.favorites ?? [];
  return (
    <Container size="xl" py="xl">
      <Stack gap="xl">
        <div>
          <Title order={1} fz={28}>
            Welcome{user?.firstName ? `, ${user.firstName}` : ''}
          </Title>
          <Text c="dimmed" mt={4}>
            Pick up where you left off, or start something new.
          </Text>
        </div>

        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
          {shortcuts.map((s) => (
            <UnstyledButton key={s.to} component={Link} to={s.to} className={classes.shortcut}>
              <ThemeIcon size={40} radius="md" variant="light" color={s.color}>
                {s.icon}
              </ThemeIcon>
              <div>
                <Text fw={600}>{s.title}</Text>
                <Text size="sm" c="dimmed">
                  {s.description}
                </Text>
              </div>
            </UnstyledButton>
          ))}
        </SimpleGrid>

        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Section title="Recent activity" icon={<IconActivity size={20} stroke={1.7} />}>
            {overview.isPending ? (
              <Loader size="sm" />
            ) : recent.length ? (
              <ActivityList items={recent} label="Recent activity" />
            ) : (
            <EmptyState
              py="xl"
              icon={<IconActivity size={26} stroke={1.5} />}
              withIndicatorBackground
              title="No recent activity yet"
              description="Queries you run, and charts and dashboards you open or edit, will show up here."
            >
              {canSqlLab && (
                <EmptyState.Actions>
                  <Button component={Link} to="/sqllab/" variant="light">
                    Open SQL Lab
                  </Button>
                </EmptyState.Actions>
              )}
            </EmptyState>
            )}
          </Section>
          <Section title="Favorites" icon={<IconStar size={20} stroke={1.7} />}>
            {favorites.length ? (
              <ActivityList items={favorites} label="Favorites" />
            ) : (
            <EmptyState
              py="xl"
              icon={<IconStar size={26} stroke={1.5} />}
              withIndicatorBackground
              title="No favorites yet"
              description="Star the charts and dashboards you use most to find them here."
            />
            )}
          </Section>
        </SimpleGrid>
      </Stack>
    </Container>
  );
}
