import { ActionIcon, Tooltip } from '@mantine/core';
import { FAVORITE_DASHBOARD_FAILED, FETCH_FAVORITE_STATUS_FAILED } from '@meridian/contracts/messages';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { favoriteStatusKey, fetchFavoriteStatus, setFavoriteStatus } from '../components/favorites';
import { addDangerToast } from '../notify';

/** The star of a dashboard (list rows and the dashboard header), with spec 02 §8's messages. */
export function DashboardFavoriteStar({ id, name, size = 17 }: { id: number; name: string; size?: number }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: favoriteStatusKey('dashboard', id), queryFn: () => fetchFavoriteStatus('dashboard', id) });
  useEffect(() => {
    if (status.isError) addDangerToast(FETCH_FAVORITE_STATUS_FAILED, { noDuplicate: true });
  }, [status.isError]);
  const toggle = useMutation({
    mutationFn: (on: boolean) => setFavoriteStatus('dashboard', id, on),
    onMutate: (on) => queryClient.setQueryData(favoriteStatusKey('dashboard', id), on),
    onError: (_error, on) => {
      queryClient.setQueryData(favoriteStatusKey('dashboard', id), !on);
      addDangerToast(FAVORITE_DASHBOARD_FAILED);
    },
  });
  const starred = status.data === true;
  return (
    <Tooltip label={starred ? 'Remove from favorites' : 'Add to favorites'}>
      <ActionIcon
        variant="subtle"
        color={starred ? 'yellow' : 'gray'}
        aria-label={starred ? `Remove ${name} from favorites` : `Add ${name} to favorites`}
        aria-pressed={starred}
        onClick={() => status.isSuccess && toggle.mutate(!starred)}
      >
        {starred ? <IconStarFilled size={size} /> : <IconStar size={size} color="var(--mantine-color-dimmed)" />}
      </ActionIcon>
    </Tooltip>
  );
}
