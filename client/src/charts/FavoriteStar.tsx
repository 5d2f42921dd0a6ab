import { ActionIcon, Tooltip } from '@mantine/core';
import { STAR_CHART_FAILED } from '@meridian/contracts/messages';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addDangerToast } from '../notify';
import { favoriteKey, fetchFavorite, setFavorite } from './favorites';

/** The star of a chart row: shows and toggles whether the signed-in user favourited the chart. */
export function FavoriteStar({ id, name, onChange }: { id: number; name: string; onChange?: () => void }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: favoriteKey(id), queryFn: () => fetchFavorite(id) });
  const toggle = useMutation({
    mutationFn: (on: boolean) => setFavorite(id, on),
    onMutate: (on) => queryClient.setQueryData(favoriteKey(id), on),
    onError: (_error, on) => {
      queryClient.setQueryData(favoriteKey(id), !on);
      addDangerToast(STAR_CHART_FAILED);
    },
    onSuccess: () => onChange?.(),
  });
  const starred = status.data === true;
  const label = starred ? `Remove ${name} from favorites` : `Add ${name} to favorites`;
  return (
    <Tooltip label={starred ? 'Remove from favorites' : 'Add to favorites'}>
      <ActionIcon
        variant="subtle"
        color={starred ? 'yellow' : 'gray'}
        aria-label={label}
        aria-pressed={starred}
        onClick={() => status.isSuccess && toggle.mutate(!starred)}
      >
        {starred ? <IconStarFilled size={17} /> : <IconStar size={17} color="var(--mantine-color-dimmed)" />}
      </ActionIcon>
    </Tooltip>
  );
}
