import { IconChartBar, IconDatabase, IconDeviceFloppy, IconHistory, IconLayoutDashboard } from '@tabler/icons-react';
import { ComingSoon } from '../components/ComingSoon';

// Screens whose server domain does not exist yet: each says what it will be, and shows no data.

export const ChartListScreen = () => (
  <ComingSoon title="Charts" icon={<IconChartBar size={28} stroke={1.5} />} description="Browse, search and manage the charts built in Explore." />
);

export const DashboardListScreen = () => (
  <ComingSoon title="Dashboards" icon={<IconLayoutDashboard size={28} stroke={1.5} />} description="Browse, search and manage dashboards." />
);

export const DashboardScreen = () => (
  <ComingSoon title="Dashboard" icon={<IconLayoutDashboard size={28} stroke={1.5} />} description="Arrange charts, filters and text on a grid and share them." />
);

export const DatabaseListScreen = () => (
  <ComingSoon title="Databases" icon={<IconDatabase size={28} stroke={1.5} />} description="Connect the databases that SQL Lab, datasets and charts query." />
);

export const SavedQueryListScreen = () => (
  <ComingSoon title="Saved queries" icon={<IconDeviceFloppy size={28} stroke={1.5} />} description="Queries saved from SQL Lab, to reopen, share and schedule." />
);

export const QueryHistoryScreen = () => (
  <ComingSoon title="Query history" icon={<IconHistory size={28} stroke={1.5} />} description="Every query run in SQL Lab, with its status, duration and results." />
);
