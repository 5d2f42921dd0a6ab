import { IconLayoutDashboard } from '@tabler/icons-react';
import { ComingSoon } from '../components/ComingSoon';

// Screens whose server domain does not exist yet: each says what it will be, and shows no data.

export const DashboardListScreen = () => (
  <ComingSoon title="Dashboards" icon={<IconLayoutDashboard size={28} stroke={1.5} />} description="Browse, search and manage dashboards." />
);

export const DashboardScreen = () => (
  <ComingSoon title="Dashboard" icon={<IconLayoutDashboard size={28} stroke={1.5} />} description="Arrange charts, filters and text on a grid and share them." />
);
