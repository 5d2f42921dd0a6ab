import { Alert, Anchor, Box, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api';
import { BrandMark } from '../shell/Brand';
import { login, safeNext } from './session';

/** The sign-in form: POST /login/ sets the session cookie; 401 shows 'Invalid login', 429 the throttling message. */
export function LoginScreen() {
  const navigate = useNavigate();
  const { next } = useSearch({ from: '/login' });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login(username, password);
      await navigate({ href: safeNext(next), replace: true });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
      setBusy(false);
    }
  };

  return (
    <Box mih="100dvh" bg="var(--meridian-page-bg)">
      <Center mih="100dvh" p="md">
        <Stack w="100%" maw={400} gap="lg">
          <Stack align="center" gap={8}>
            <BrandMark size={44} />
            <Title order={2} ta="center">
              Sign in to Meridian
            </Title>
            <Text c="dimmed" size="sm" ta="center">
              Explore data, write SQL and share dashboards.
            </Text>
          </Stack>
          <Paper withBorder shadow="sm" p="xl">
            <form onSubmit={(e) => void submit(e)} noValidate>
              <Stack gap="md">
                {error && (
                  <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
                    {error}
                  </Alert>
                )}
                <TextInput label="Username" name="username" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
                <PasswordInput label="Password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
                <Button type="submit" fullWidth mt="xs" loading={busy} disabled={!username || !password}>
                  Sign in
                </Button>
              </Stack>
            </form>
          </Paper>
          <Text c="dimmed" size="xs" ta="center">
            Scripts can sign in with <Anchor href="/swagger/v1" size="xs">the REST API</Anchor> and a bearer token.
          </Text>
        </Stack>
      </Center>
    </Box>
  );
}
