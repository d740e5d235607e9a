/** next-auth for the settings area: email and password from the users table, 12-hour JWT sessions. */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { appDatabase } from "@/server/app-database";
import { env } from "@/server/env";
import { log } from "@/server/log";
import { type SessionClaims, signInWithPassword, TooManySignInAttempts } from "./members";

// next-auth builds its own links and cookie names from NEXTAUTH_URL, and
// reads it from process.env only: it gets the validated value there.
process.env.NEXTAUTH_URL = env.NEXTAUTH_URL;

export const authOptions: NextAuthOptions = {
  secret: env.NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      // next-auth hands a thrown error's message to the browser: only ours, written for it, may get there.
      async authorize(credentials) {
        if (!credentials?.email || !credentials.password) return null;
        try {
          const claims = await signInWithPassword(appDatabase().sql, credentials.email, credentials.password);
          return claims && { id: claims.userId, sessionVersion: claims.sessionVersion };
        } catch (error) {
          if (error instanceof TooManySignInAttempts) throw error;
          log.error("sign-in failed", { error });
          throw new Error("unavailable");
        }
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.sessionVersion = (user as unknown as SessionClaims).sessionVersion;
      return token;
    },
    // The session carries only who signed in; role and company are read from the database per request.
    session({ session, token }) {
      return { expires: session.expires, claims: { userId: token.sub!, sessionVersion: token.sessionVersion as number } };
    },
  },
};
