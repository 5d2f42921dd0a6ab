import { Button, Container, EmptyState, Group, Paper, Text, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** The honest empty state of a screen whose feature is not built yet: a title and what it will do, no fake data. */
export function ComingSoon({ title, description, icon }: { title: string; description: string; icon?: ReactNode }) {
  return (
    <Container size="xl" py="xl">
      <Title order={2} mb={4}>
        {title}
      </Title>
      <Text c="dimmed" mb="lg">
        {description}
      </Text>
      <Paper withBorder p={48}>
        <EmptyState
          title="Coming soon"
          description={`${title} is a part of Meridian that is still being built. It will appear here as soon as it is ready.`}
          icon={icon ?? <IconTools size={28} stroke={1.5} />}
          variant="light"
          size="lg"
        >
          <EmptyState.Actions>
            <Group justify="center">
              <Button component={Link} to="/" variant="default">
                Back to home
              </Button>
            </Group>
          </EmptyState.Actions>
        </EmptyState>
      </Paper>
    </Container>
  );
}
