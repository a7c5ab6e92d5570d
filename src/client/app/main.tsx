import '#client/lib/zod-jitless.ts';
import './styles.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from '#client/app/router.tsx';
import { Toaster } from '#client/components/ui/toaster.tsx';
import { AuthProvider } from '#client/lib/auth.tsx';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
        <Toaster belowHeader />
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
