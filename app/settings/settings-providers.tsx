"use client";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { createContext, type ReactNode, useContext, useState } from "react";
import { signInPath } from "@/server/auth/callback-path";
import { createSettingsClient, SettingsApiProvider } from "./settings-api";

export type Viewer = { role: "admin" | "member" };

const ViewerContext = createContext<Viewer | null>(null);

/** Who is looking: pages hide what the role may not do (the server refuses it anyway). */
export function useViewer() {
  const viewer = useContext(ViewerContext);
  if (!viewer) throw new Error("useViewer needs <SettingsProviders>");
  return viewer;
}

/** A session that ended (signed out elsewhere, removed, suspended) sends the page back to sign-in, and sign-in back here. */
function signInAgainWhenSessionEnded(error: unknown) {
  if (error instanceof TRPCClientError && error.data?.httpStatus === 401) {
    window.location.assign(signInPath(`${window.location.pathname}${window.location.search}`));
  }
}

export function SettingsProviders({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: signInAgainWhenSessionEnded }),
        mutationCache: new MutationCache({ onError: signInAgainWhenSessionEnded }),
        defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 5_000 } },
      }),
  );
  const [settingsClient] = useState(createSettingsClient);
  return (
    <QueryClientProvider client={queryClient}>
      <SettingsApiProvider trpcClient={settingsClient} queryClient={queryClient}>
        <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>
      </SettingsApiProvider>
    </QueryClientProvider>
  );
}
