import { Button, Container, EmptyState } from '@mantine/core';
import { IconMapOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { bootstrapQuery } from '../auth/session';
import { AppLayout } from '../shell/AppLayout';

/** Shown for any path that matches no screen. */
export function NotFound() {
  return (
    <Container size="sm" py={80}>
      <EmptyState title="Page not found" description="The page you are looking for does not exist or has moved." icon={<IconMapOff size={28} stroke={1.5} />} variant="light" size="lg">
        <EmptyState.Actions>
          <Button component={Link} to="/" variant="default">
            Back to home
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Container>
  );
}

/** A path no route knows: inside the app shell when signed in, on its own otherwise. */
export function RootNotFound() {
  const { data } = useQuery(bootstrapQuery());
  return data?.user ? (
    <AppLayout>
      <NotFound />
    </AppLayout>
  ) : (
    <NotFound />
  );
}
