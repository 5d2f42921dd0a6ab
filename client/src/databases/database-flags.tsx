import type { DatabaseView } from '@meridian/contracts/schemas/database';
import { IconBolt, IconCloudUpload, IconPencilBolt, IconTable, IconTerminal2, IconTableShortcut } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export type DatabaseFlag = 'expose_in_sqllab' | 'allow_run_async' | 'allow_dml' | 'allow_ctas' | 'allow_cvas' | 'allow_file_upload';

/** The database switches the list shows as badges and the form edits, with Superset's wording. */
export const DATABASE_FLAGS: ReadonlyArray<{ key: DatabaseFlag; short: string; label: string; description: string; icon: ReactNode }> = [
  {
    key: 'expose_in_sqllab',
    short: 'SQL Lab',
    label: 'Expose database in SQL Lab',
    description: 'Allow this database to be queried in SQL Lab.',
    icon: <IconTerminal2 size={13} />,
  },
  {
    key: 'allow_run_async',
    short: 'Async',
    label: 'Asynchronous query execution',
    description: 'Run queries on background workers instead of inside the web request; results are fetched when ready.',
    icon: <IconBolt size={13} />,
  },
  {
    key: 'allow_dml',
    short: 'DML',
    label: 'Allow DML',
    description: 'Allow manipulation of the database using non-SELECT statements such as UPDATE, DELETE, CREATE, etc.',
    icon: <IconPencilBolt size={13} />,
  },
  {
    key: 'allow_ctas',
    short: 'CTAS',
    label: 'Allow CREATE TABLE AS',
    description: 'Allow creation of new tables based on queries.',
    icon: <IconTable size={13} />,
  },
  {
    key: 'allow_cvas',
    short: 'CVAS',
    label: 'Allow CREATE VIEW AS',
    description: 'Allow creation of new views based on queries.',
    icon: <IconTableShortcut size={13} />,
  },
  {
    key: 'allow_file_upload',
    short: 'Uploads',
    label: 'Allow file uploads to database',
    description: 'Allow uploading CSV, Excel and columnar files into this database.',
    icon: <IconCloudUpload size={13} />,
  },
];

/** Badge colour of a backend name. */
export function backendColor(backend: string): string {
  switch (backend) {
    case 'postgresql':
      return 'blue';
    case 'mysql':
      return 'orange';
    case 'duckdb':
      return 'yellow';
    case 'sqlite':
      return 'cyan';
    default:
      return 'gray';
  }
}

/** A database's flags in the order the form lists them. */
export const flagsOf = (db: DatabaseView) => DATABASE_FLAGS.filter((f) => db[f.key]);
