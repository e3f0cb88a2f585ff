import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT } from './sidebar-state';

const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;

/** Whether the viewport is below the SPEC §9 mobile breakpoint (770px). */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const mql = window.matchMedia(query);
      mql.addEventListener('change', notify);
      return () => mql.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
