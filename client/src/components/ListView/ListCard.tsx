import { Avatar, Card, Group, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { AppLink } from '../../query-history/app-link';
import { personName } from './cells';
import classes from './ListView.module.css';

/** A card of a list's card view: a picture of the object, its name (a link), what it is, who changed it when. */
export function ListCard({
  href,
  title,
  cover,
  star,
  badge,
  subtitle,
  modified,
  owners,
  actions,
}: {
  href: string;
  title: string;
  cover: ReactNode;
  star?: ReactNode;
  badge?: ReactNode;
  subtitle?: ReactNode;
  modified: string;
  owners: Array<{ id: number; first_name: string; last_name: string }>;
  actions?: ReactNode;
}) {
  return (
    <Card withBorder padding="sm" radius="md" className={classes.card} data-testid="list-card" aria-label={title}>
      <Card.Section className={classes.cardCover}>{cover}</Card.Section>
      <Group gap={6} wrap="nowrap" mt="sm" align="center">
        {star}
        <AppLink href={href} size="sm" fw={600} truncate style={{ flex: 1, minWidth: 0 }}>
          {title}
        </AppLink>
      </Group>
      {/* The badge (a chart type's name can be long) sits under the title, beside the subtitle: the title keeps the row. */}
      {(subtitle || badge) && (
        <Group gap={6} wrap="nowrap" mt={4} justify="space-between">
          <Text size="xs" c="dimmed" truncate style={{ flex: 1, minWidth: 0 }}>
            {subtitle}
          </Text>
          {badge}
        </Group>
      )}
      <Group justify="space-between" mt="xs" wrap="nowrap">
        <Text size="xs" c="dimmed" truncate>
          {`Modified ${modified}`}
        </Text>
        <Group gap={4} wrap="nowrap">
          <Avatar.Group spacing={6}>
            {owners.slice(0, 3).map((o) => (
              <Tooltip key={o.id} label={personName(o)}>
                <Avatar size={22} radius="xl" name={personName(o)} color="initials" />
              </Tooltip>
            ))}
          </Avatar.Group>
          {actions}
        </Group>
      </Group>
    </Card>
  );
}
