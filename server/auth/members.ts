/**
 * Who is signed in to the settings area. Sessions are JWTs (next-auth's
 * credentials provider allows nothing else), so a token alone proves little:
 * every request reloads the user, checks the company is not suspended and that
 * the token's session version is still the user's.
 */
import type postgres from "postgres";
import type { UserRole } from "@/db/schema";
import { takeFromBucket } from "@/server/security/rate-limit-buckets";
import { hashPassword, verifyPassword } from "./passwords";

export type Member = {
  userId: string;
  companyId: string;
  companyName: string;
  role: UserRole;
  name: string;
  email: string;
};

/** The signed-in user as the token names them; `sessionVersion` ends every session when bumped. */
export type SessionClaims = { userId: string; sessionVersion: number };

type MemberRow = {
  user_id: string;
  company_id: string;
  company_name: string;
  role: UserRole;
  name: string;
  email: string;
  password_hash: string;
  session_version: number;
  suspended: boolean;
};

const memberColumns = (sql: postgres.Sql) => sql`
  u.id as user_id, u.company_id, c.name as company_name, u.role, u.name, u.email, u.password_hash,
  u.session_version, c.suspended_at is not null as suspended`;

const toMember = (row: MemberRow): Member => ({
  userId: row.user_id,
  companyId: row.company_id,
  companyName: row.company_name,
  role: row.role,
  name: row.name,
  email: row.email,
});

/** Compared against when the email is unknown, so a wrong email takes as long as a wrong password. */
let decoyHash: Promise<string> | undefined;
const decoy = () => {
  decoyHash ??= hashPassword("decoy");
  return decoyHash;
};

/** Password guesses allowed per email address and minute (GCRA, shared by every web process). */
export const signInAttemptsPerMinute = 10;

export class TooManySignInAttempts extends Error {
  constructor() {
    super("too_many_attempts");
  }
}

/**
 * Checks an email and password; null for any refusal, so the page cannot tell
 * which part was wrong. Guessing is limited per address, known or not.
 */
export async function signInWithPassword(sql: postgres.Sql, email: string, password: string): Promise<SessionClaims | null> {
  const address = email.trim().toLowerCase();
  if (!(await takeFromBucket(sql, `sign-in:${address}`, signInAttemptsPerMinute))) throw new TooManySignInAttempts();
  const [row] = await sql<MemberRow[]>`
    select ${memberColumns(sql)} from users u join companies c on c.id = u.company_id
    where lower(u.email) = ${address}`;
  const matches = await verifyPassword(password, row?.password_hash ?? (await decoy()));
  if (!row || !matches || row.suspended) return null;
  return { userId: row.user_id, sessionVersion: row.session_version };
}

/** The member behind a session, or null when the user is gone, the company suspended or the session ended. */
export async function loadMember(sql: postgres.Sql, claims: SessionClaims): Promise<Member | null> {
  const [row] = await sql<MemberRow[]>`
    select ${memberColumns(sql)} from users u join companies c on c.id = u.company_id
    where u.id = ${claims.userId}`;
  if (!row || row.suspended || row.session_version !== claims.sessionVersion) return null;
  return toMember(row);
}
