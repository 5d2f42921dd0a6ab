import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** The margin's pixels ('300px'); a margin in other units counts as none for the first look. */
const pixelsOf = (margin: string): number => (/^\d+px$/.test(margin) ? Number.parseInt(margin, 10) : 0);

/** True where everything is to be drawn as if near (a dashboard pictured whole for a download). */
export const AllNearViewport = createContext(false);

/**
 * True once the element has come within `margin` of the viewport, and stays true: what is below the fold
 * (dashboard charts, list thumbnails) is fetched and drawn only when it scrolls near. What is near when it
 * first mounts is known before the first paint (one layout read), not an IntersectionObserver callback later:
 * a dashboard's charts in view start their queries a frame sooner, and that first frame is a heavy one.
 */
export function useNearViewport<T extends Element>(margin = '300px'): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null);
  const [near, setNear] = useState(false);
  const allNear = useContext(AllNearViewport);
  useLayoutEffect(() => {
    const box = ref.current?.getBoundingClientRect();
    const m = pixelsOf(margin);
    if (box && box.bottom >= -m && box.top <= window.innerHeight + m && box.right >= -m && box.left <= window.innerWidth + m) setNear(true);
    // Only on mount: afterwards the observer below watches.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: margin });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, margin]);
  return [ref, near || allNear];
}
