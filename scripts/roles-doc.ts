// Prints docs/roles.md from the seeded permission matrix: `pnpm exec tsx scripts/roles-doc.ts > docs/roles.md`.
import { SEEDED_ROLES } from '../server/src/security/permission-matrix';

const roles = Object.keys(SEEDED_ROLES);
const pairs = [...new Set(Object.values(SEEDED_ROLES).flat().map(([p, v]) => `${v}\u0000${p}`))].sort();
const lines = [
  '# Roles and permissions',
  '',
  'Seeded on every start: each built-in role is set to exactly these grants (missing ones added, others taken back, as Superset\'s `init` does); make a new role for other grants. Any role named `admin`, in any case, holds every permission (spec 01 §6).',
  'Database access: `all_database_access`, or `database_access` on the view `[name].(id:N)`; one dataset: `datasource_access` on `[database].[table](id:N)` (made with the dataset, or by `POST /api/v1/database/{pk}/sync_permissions/`).',
  '',
  `| view | permission | ${roles.join(' | ')} |`,
  `|---|---|${roles.map(() => '---').join('|')}|`,
  ...pairs.map((key) => {
    const [view, permission] = key.split('\u0000');
    const cells = roles.map((role) => (role === 'Admin' || SEEDED_ROLES[role].some(([p, v]) => p === permission && v === view) ? '✓' : ''));
    return `| ${view} | ${permission} | ${cells.join(' | ')} |`;
  }),
];
console.log(lines.join('\n'));
