import { IconChartDots } from '@tabler/icons-react';
import { ComingSoon } from '../components/ComingSoon';

/** Placeholder until the Explore screen lands (owned by the Explore engineer). */
export function ExploreScreen() {
  return <ComingSoon title="Explore" icon={<IconChartDots size={28} stroke={1.5} />} description="Build a chart from a dataset." />;
}
