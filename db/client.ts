/**
 * Database access. `createDatabase` opens a pool for an explicit URL (the CLI,
 * the worker and the tests); `db()` is the web app's pool, created once per
 * process and kept on globalThis so Next.js hot reloads do not leak pools.
 */
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

export type Database = ReturnType<typeof drizzle<typeof schema>>;
/** A database handle or an open transaction: domain code accepts either. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseHandle = { db: Database; sql: postgres.Sql; close: () => Promise<void> };

export function createDatabase(url: string, options: { max?: number } = {}): DatabaseHandle {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { application_name: "interview-api" },
  });
  const db = drizzle(sql, { schema, casing: "snake_case" });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

const cache = globalThis as unknown as { __database?: DatabaseHandle };

export function appDatabase(): DatabaseHandle {
  if (!cache.__database) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set; start the app with `npm run dev` or `npm start`.");
    cache.__database = createDatabase(url);
  }
  return cache.__database;
}
