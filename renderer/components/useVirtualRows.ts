import { useEffect, useState, type RefObject } from 'react';

export interface RowWindow {
  /** First and one-past-last row to draw. */
  start: number;
  end: number;
  /** Height of the rows above and below the drawn ones, kept as spacers so the scrollbar is true. */
  padTop: number;
  padBottom: number;
  /** The container's width, for a list that shows fewer columns when narrow. */
  width: number;
}

/**
 * The rows of a long list that are in view (plus `overscan` either side), for a scroll container
 * whose rows are all `rowHeight` pixels: a queue of 50,000 rows draws a screenful, not 50,000.
 */
export function rowWindow(count: number, rowHeight: number, scrollTop: number, viewHeight: number, overscan: number): RowWindow {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const start = Math.max(0, Math.min(count, first - overscan));
  const end = Math.max(start, Math.min(count, first + Math.ceil(viewHeight / rowHeight) + overscan));
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight, width: 0 };
}

/**
 * `list`, when the rows do not start at the top of the scroll container (a heading and filters
 * scroll with them): the rows' own element, whose distance from the container's top is taken off.
 */
export function useVirtualRows(container: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan = 12, list?: RefObject<HTMLElement | null>): RowWindow {
  const [view, setView] = useState({ scrollTop: 0, height: 900, width: 1000 });
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const measure = () => {
      const start = list?.current ? list.current.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop : 0;
      setView({ scrollTop: el.scrollTop - start, height: el.clientHeight || 900, width: el.clientWidth || 1000 });
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      resize?.disconnect();
    };
  }, [container, list]);
  return { ...rowWindow(count, rowHeight, view.scrollTop, view.height, overscan), width: view.width };
}
