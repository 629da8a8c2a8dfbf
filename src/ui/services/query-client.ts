import { QueryClient } from '@tanstack/react-query';

/** The app's one query cache (stores outside React invalidate through it). */
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
