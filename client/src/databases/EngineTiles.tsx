import { SimpleGrid, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { CONNECT_ENGINES, ENGINE_FORMS, type ConnectEngine } from '@meridian/contracts/rules/database-parameters';
import { IconBrandMysql, IconDatabase, IconFeather, IconFileDatabase } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './DatabaseFormModal.module.css';

const LOOK: Record<ConnectEngine, { icon: ReactNode; color: string; label: string; hint: string }> = {
  postgresql: { icon: <IconDatabase size={22} />, color: 'blue', label: 'PostgreSQL', hint: 'A server, by host and port' },
  mysql: { icon: <IconBrandMysql size={22} />, color: 'orange', label: 'MySQL / MariaDB', hint: 'A server, by host and port' },
  duckdb: { icon: <IconFeather size={22} />, color: 'yellow', label: 'DuckDB', hint: 'A database file on the server' },
  sqlite: { icon: <IconFileDatabase size={22} />, color: 'cyan', label: 'SQLite', hint: 'A database file on the server' },
};

/** The engines the form connects, as tiles (Superset's "preferred databases"), in CONNECT_ENGINES order. */
export function EngineTiles({ onPick }: { onPick: (engine: ConnectEngine) => void }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" role="list" aria-label="Engines">
      {CONNECT_ENGINES.map((engine) => {
        const look = LOOK[engine];
        return (
          <UnstyledButton key={engine} role="listitem" className={classes.engine} onClick={() => onPick(engine)} aria-label={look.label} title={ENGINE_FORMS[engine].sqlalchemyUriPlaceholder}>
            <ThemeIcon size={44} radius="md" variant="light" color={look.color} aria-hidden>
              {look.icon}
            </ThemeIcon>
            <Text fw={600} size="sm" ta="center">
              {look.label}
            </Text>
            <Text size="xs" c="dimmed" ta="center">
              {look.hint}
            </Text>
          </UnstyledButton>
        );
      })}
    </SimpleGrid>
  );
}

export const engineLabel = (engine: ConnectEngine) => LOOK[engine].label;
