"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useState } from "react";

export type Viewer = { name: string; role: "admin" | "member" };

const ViewerContext = createContext<Viewer | null>(null);

/** Who is looking: pages hide what the role may not do (the server refuses it anyway). */
export function useViewer() {
  const viewer = useContext(ViewerContext);
  if (!viewer) throw new Error("useViewer needs <SettingsProviders>");
  return viewer;
}

export function SettingsProviders({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 5_000 } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>
    </QueryClientProvider>
  );
}
