/** The content size of an element, following every resize (a ResizeObserver, not window events). */
import { useEffect, useState } from "react";

export interface ElementSize {
  width: number;
  height: number;
}

export function useElementSize(element: HTMLElement | null): ElementSize {
  const [size, setSize] = useState<ElementSize>({ width: 0, height: 0 });
  useEffect(() => {
    if (element === null) return;
    // The observer reports the content box at once on observing (clientWidth would count the padding).
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return size;
}
