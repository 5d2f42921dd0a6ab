import { Center, Loader, Stack, Text } from '@mantine/core';
import { useNavigate, useParams } from '@tanstack/react-router';
import { createContext, useContext, useEffect, useState } from 'react';
import { initialSqlLabState } from '@meridian/contracts/sqllab/index';
import { useBootstrap } from '../auth/session';
import { SqlLabController } from './sqllab.controller';
import { createSqlLabStore, SqlLabStoreContext } from './sqllab.store';
import { TabbedEditors } from './TabbedEditors';
import classes from './sqllab.module.css';

const ControllerContext = createContext<SqlLabController | null>(null);

/** The SQL editor's use cases, for components under the screen. */
export function useSqlLabController(): SqlLabController {
  const controller = useContext(ControllerContext);
  if (!controller) throw new Error('useSqlLabController outside SqlLabScreen');
  return controller;
}

/** SQL Lab (route /sqllab/): the multi-tab SQL editor of spec 01. */
export function SqlLabScreen() {
  const boot = useBootstrap();
  const [controller] = useState(() => new SqlLabController(createSqlLabStore(initialSqlLabState(Date.now())), { conf: boot.conf, featureFlags: boot.featureFlags }));
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    void controller.start(new URLSearchParams(window.location.search)).finally(() => {
      if (cancelled) return;
      controller.attach();
      setReady(true);
    });
    return () => {
      cancelled = true;
      controller.dispose();
    };
  }, [controller]);

  useEffect(() => {
    document.title = 'SQL Lab · Meridian';
  }, []);

  return (
    <ControllerContext.Provider value={controller}>
      <SqlLabStoreContext.Provider value={controller.store}>
        <div className={classes.screen} data-testid="sqllab">
          {ready ? (
            <TabbedEditors />
          ) : (
            <Center h="100%">
              <Stack align="center" gap="xs">
                <Loader size="sm" />
                <Text size="sm" c="dimmed">
                  Opening SQL Lab…
                </Text>
              </Stack>
            </Center>
          )}
        </div>
      </SqlLabStoreContext.Provider>
    </ControllerContext.Provider>
  );
}

/**
 * `/sqllab/p/{key}`: a SQL Lab permalink. It becomes `/sqllab/?permalink_key={key}` before SQL Lab starts, so the
 * one SQL Lab screen (and its tabs) opens it like any other request in the address.
 */
export function SqlLabPermalinkScreen() {
  const { key } = useParams({ strict: false }) as { key: string };
  const navigate = useNavigate();
  useEffect(() => {
    void navigate({ href: `/sqllab/?permalink_key=${encodeURIComponent(key)}`, replace: true });
  }, [key, navigate]);
  return (
    <Center h="60vh">
      <Loader />
    </Center>
  );
}
