import { useEffect, useRef } from 'react';

/**
 * For a panel that opens below a long list: scrolls it into view and moves the focus to it whenever `key` changes
 * (the element needs `tabIndex={-1}`). Without it the panel renders off screen and the click seems to do nothing.
 */
export function useReveal<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.scrollIntoView?.({ block: 'start', behavior: 'instant' });
    element.focus({ preventScroll: true });
  }, [key]);
  return ref;
}
