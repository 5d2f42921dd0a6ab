import { Box, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useNearViewport } from './useNearViewport';

/** How often a thumbnail being drawn is asked for again, and for how long. */
const POLL_MS = 2000;
const GIVE_UP_MS = 120_000;

/**
 * A card's picture drawn on the server (`thumbnail_url`, THUMBNAILS): asked for once the card is near the viewport,
 * asked again while the server answers 202 (being drawn), shown once it answers the PNG. When the server cannot draw
 * it (no browser there, or the picture failed), `fallback` is shown instead. `contain` shows the whole picture
 * (a chart), `cover` its top across the card (a dashboard).
 */
export function ServerThumbnail({ url, alt, fallback, height = 150, fit = 'cover' }: { url: string; alt: string; fallback: ReactNode; height?: number; fit?: 'cover' | 'contain' }) {
  const [ref, near] = useNearViewport<HTMLDivElement>('100px');
  const picture = useQuery({
    queryKey: ['server-thumbnail', url],
    enabled: near,
    staleTime: 10 * 60_000,
    retry: false,
    queryFn: async ({ signal }): Promise<Blob | null> => {
      const started = Date.now();
      for (;;) {
        const res = await fetch(url, { credentials: 'same-origin', signal });
        if (res.status === 200 && res.headers.get('content-type')?.startsWith('image/')) return res.blob();
        if (res.status !== 202 || Date.now() - started > GIVE_UP_MS) return null;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    },
  });
  const src = useMemo(() => (picture.data ? URL.createObjectURL(picture.data) : null), [picture.data]);
  useEffect(() => () => (src ? URL.revokeObjectURL(src) : undefined), [src]);
  const failed = picture.isError || picture.data === null;
  return (
    <Box ref={ref} h={height} data-testid="server-thumbnail" data-state={src ? 'ready' : failed ? 'fallback' : 'drawing'}>
      {src ? <img src={src} alt={alt} style={{ width: '100%', height, objectFit: fit, objectPosition: 'top', display: 'block' }} /> : failed ? fallback : <Skeleton h={height} radius={0} animate={near} />}
    </Box>
  );
}
