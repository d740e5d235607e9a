import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Suspense } from "react";
import { safeCallbackPath } from "@/server/auth/callback-path";
import { currentMember } from "@/server/auth/session";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string | string[] }> }) {
  const { callbackUrl } = await searchParams;
  if (await currentMember()) redirect(safeCallbackPath(typeof callbackUrl === "string" ? callbackUrl : null));
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6 py-12">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in to API and webhooks</h1>
      <p className="mt-2 text-sm text-slate-600">Use the email and password of your company account.</p>
      <Suspense>
        <SignInForm />
      </Suspense>
    </main>
  );
}
