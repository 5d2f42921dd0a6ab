import { useEffect, useRef, useState } from 'react';

/**
 * True once the element has come within `margin` of the viewport, and stays true: what is below the fold
 * (dashboard charts, list thumbnails) is fetched and drawn only when it scrolls near.
 */
export function useNearViewport<T extends Element>(margin = '300px'): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: margin });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, margin]);
  return [ref, near];
}
