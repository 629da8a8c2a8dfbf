import { useEffect, useState } from 'react';

/** `performance.now()`, refreshed every `everyMs` while `active`: for elapsed times and estimates on screen. */
export function useNow(active: boolean, everyMs = 500): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(performance.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
