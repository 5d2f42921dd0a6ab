import { Stack, Text } from '@mantine/core';
import { NO_RESULTS, NO_RESULTS_EXPLORE_HINT } from '@meridian/contracts/messages';
import { IconChartBar } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';

// Superset's ChartRenderer: the big empty state (with Explore's hint) from 300 × 220 px, the small one below.
const BIG_MIN_WIDTH = 300;
const BIG_MIN_HEIGHT = 220;

/** What a chart draws for an empty answer (`answer`), in place of its type's drawing; drawn, each answer counts as rendered. */
export function NoResults({ answer, width, height, inExplore, onRendered }: { answer: unknown; width: number; height: number; inExplore: boolean; onRendered?: () => void }) {
  const rendered = useRef(onRendered);
  rendered.current = onRendered;
  useEffect(() => rendered.current?.(), [answer]);
  const big = width > BIG_MIN_WIDTH && height > BIG_MIN_HEIGHT;
  return (
    <Stack align="center" justify="center" gap={big ? 'xs' : 4} h={height} w={width} p="sm" data-testid="chart-no-results">
      <IconChartBar size={big ? 48 : 24} stroke={1.2} color="var(--mantine-color-dimmed)" aria-hidden />
      <Text size={big ? 'md' : 'sm'} fw={600} ta="center">
        {NO_RESULTS}
      </Text>
      {big && inExplore && (
        <Text size="sm" c="dimmed" ta="center" maw={420}>
          {NO_RESULTS_EXPLORE_HINT}
        </Text>
      )}
    </Stack>
  );
}
