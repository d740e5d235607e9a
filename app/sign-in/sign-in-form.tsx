"use client";
import { useRouter, useSearchParams } from "next/navigation";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { Button } from "@/app/ui/button";
import { Field } from "@/app/ui/field";
import { safeCallbackPath } from "@/server/auth/callback-path";

const refusals: Record<string, string> = {
  too_many_attempts: "Too many sign-in attempts for this email. Wait a minute and try again.",
  unavailable: "We could not sign you in just now. Try again in a moment.",
};

export function SignInForm() {
  const router = useRouter();
  const searchParams = useSearchParams();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setProblem(null);
    try {
      const result = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false });
      if (result?.ok && !result.error) {
        router.replace(safeCallbackPath(searchParams.get("callbackUrl")));
        router.refresh();
        return;
      }
      setProblem(refusals[result?.error ?? ""] ?? "That email and password do not match an active account.");
    } catch {
      setProblem("We could not reach the server. Check your connection and try again.");
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="mt-8 space-y-4" noValidate>
      <Field label="Email" name="email" type="email" autoComplete="username" required autoFocus />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      {problem && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {problem}
        </p>
      )}
      <Button type="submit" variant="primary" busy={busy} className="w-full">
        Sign in
      </Button>
    </form>
  );
}
