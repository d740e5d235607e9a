import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import { ZodWithoutEval } from "./ui/zod-without-eval";

export const metadata: Metadata = {
  title: "Interview API and webhooks",
  description: "Read interview data and hear about changes.",
  icons: { icon: "/icon.svg" },
};

// Every page's Content-Security-Policy carries a fresh script nonce (set by
// the web server's edge), which Next.js can only put on its scripts when it
// renders the page for that request: no page is prerendered.
export const dynamic = "force-dynamic";

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <ZodWithoutEval />
        {children}
      </body>
    </html>
  );
}
