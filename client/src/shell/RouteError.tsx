import { Alert, Button, Container, Group } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { errorOf } from '../trpc';

/** A screen that failed to load: the normalised error message and a retry. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  return (
    <Container size="sm" py={60}>
      <Alert color="red" variant="light" title="Sorry, an error occurred" icon={<IconAlertTriangle />}>
        {errorOf(error).error}
        <Group mt="md">
          <Button size="xs" variant="default" onClick={() => (reset ? reset() : window.location.reload())}>
            Try again
          </Button>
        </Group>
      </Alert>
    </Container>
  );
}
