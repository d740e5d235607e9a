/**
 * The process environment, validated once at start-up. Every setting the
 * product reads lives here and is documented in `.env.example`; no other
 * module reads `process.env` for one. `env` is frozen: a process that must
 * differ from its configuration (the demo receiver under `npm run dev`, a
 * test's receiver) passes the value explicitly, or to a child's environment.
 *
 * Secrets (`APP_SECRET`, `NEXTAUTH_SECRET`) are required in production. In
 * development and tests a random value is generated once and kept in
 * `.data/dev-secrets.json`, so signed links and sessions survive restarts.
 * That file stands in for `APP_SECRET` only with the embedded database: a
 * server at `DATABASE_URL` is shared with processes elsewhere (the web
 * server, workers, an operator's CLI), and what one encrypts with a secret
 * of its own file the others cannot read. There `APP_SECRET` must be set, and
 * whatever needs it refuses without it (`appSecret`).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { MissingSetting } from "./missing-setting";

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

const integer = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: integer(3000),
  /** Where the web server listens; unset: localhost for `npm run dev`, 0.0.0.0 otherwise (`server/runtime/main.ts`). */
  HOST: optionalText,
  APP_URL: optionalText.pipe(z.url().optional()),
  /** next-auth's own address (links, cookie names); unset: APP_URL. */
  NEXTAUTH_URL: optionalText.pipe(z.url().optional()),
  DATABASE_URL: optionalText,
  DATA_DIR: z.string().default(".data"),
  EMBEDDED_POSTGRES_PORT: integer(54329),
  FILE_STORAGE_DIR: optionalText,
  APP_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  NEXTAUTH_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  WORKER_CONCURRENCY: integer(10),
  /** Connections each of a web process's two postgres.js pools (writes, reads) may open. */
  WEB_DATABASE_POOL_SIZE: integer(10),
  /** Connections each of a worker process's two postgres.js pools may open; unset: WORKER_CONCURRENCY + 4 (the jobs, the dispatcher's claims and records, the heartbeat). */
  WORKER_DATABASE_POOL_SIZE: optionalText.pipe(z.coerce.number<string>().int().positive().optional()),
  /** Connections of graphile-worker's own pool in a worker process (fetching and completing jobs, cron, its LISTEN). */
  WORKER_JOB_POOL_SIZE: integer(10),
  RATE_LIMIT_PER_KEY: integer(120),
  RATE_LIMIT_PER_COMPANY: integer(300),
  /** Exact host:port webhook targets allowed despite the public-address rule (tests, private deployments). */
  WEBHOOK_ALLOW_TARGETS: z
    .string()
    .default("")
    .transform((value): readonly string[] =>
      value
        .split(",")
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** A PEM file of extra certificate authorities trusted for webhook deliveries. */
  WEBHOOK_CA_FILE: optionalText,
  /** How long an attempt may run before a killed worker's attempt is taken as interrupted (> the 10 s deadline). */
  /** Requests one worker process has in flight to one webhook. */
  WEBHOOK_CONCURRENCY: integer(10),
  /** Requests one worker process has in flight to all webhooks together. */
  WEBHOOK_MAX_IN_FLIGHT: integer(100),
  WEBHOOK_ATTEMPT_LEASE_SECONDS: z.coerce.number().int().min(11).default(60),
  /** `npm run dev` only: where the demo company's webhook receiver listens (127.0.0.1). */
  DEMO_RECEIVER_PORT: integer(54330),
  SMTP_URL: optionalText,
  EMAIL_FROM: z.string().default("Interview API <no-reply@localhost>"),
  /**
   * The worker's own HTTP listener (/metrics, /healthz, /readyz); 0 takes any
   * free port (logged at start). Unset: 3001, except that `npm run dev` takes
   * any free port when 3001 is taken (worker/listener.ts).
   */
  WORKER_HTTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  WORKER_HTTP_HOST: z.string().trim().min(1).default("127.0.0.1"),
  /** When set, /metrics answers only requests with `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  /** The least severe lines written: `error`, `warn`, `info`, or `debug`, which also logs every background job, /v1 request and webhook delivery. */
  LOG_LEVEL: z.enum(["error", "warn", "info", "debug"]).default("info"),
});

export type Env = Readonly<
  Omit<z.infer<typeof schema>, "APP_SECRET" | "NEXTAUTH_SECRET" | "APP_URL" | "NEXTAUTH_URL" | "FILE_STORAGE_DIR" | "WORKER_DATABASE_POOL_SIZE"> & {
    APP_URL: string;
    NEXTAUTH_URL: string;
    /** null: not set while DATABASE_URL is; read it through `appSecret()`, which refuses then. */
    APP_SECRET: string | null;
    NEXTAUTH_SECRET: string;
    FILE_STORAGE_DIR: string;
    WORKER_DATABASE_POOL_SIZE: number;
  }
>;

type DevSecrets = { APP_SECRET: string; NEXTAUTH_SECRET: string };

function devSecrets(dataDir: string): DevSecrets {
  const file = path.resolve(dataDir, "dev-secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as DevSecrets;
  const secrets: DevSecrets = {
    APP_SECRET: randomBytes(32).toString("base64url"),
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
  };
  mkdirSync(path.dirname(file), { recursive: true });
  // `wx` keeps the first writer's secrets when several processes start at once.
  try {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
  } catch {
    return JSON.parse(readFileSync(file, "utf8")) as DevSecrets;
  }
  return secrets;
}

/** Freezes the settings and every list in them: changing one throws instead of reaching some readers and not others. */
function deepFreeze<T extends object>(value: T): T {
  for (const field of Object.values(value)) {
    if (typeof field === "object" && field !== null) deepFreeze(field);
  }
  return Object.freeze(value);
}

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join("\n")}`);
  }
  const values = { ...parsed.data, WORKER_DATABASE_POOL_SIZE: parsed.data.WORKER_DATABASE_POOL_SIZE ?? parsed.data.WORKER_CONCURRENCY + 4 };
  const missing = (["APP_SECRET", "NEXTAUTH_SECRET"] as const).filter((name) => !values[name]);
  // `next build` evaluates route modules without serving anything: runtime
  // secrets are neither needed nor wanted in the build environment.
  if (source.NEXT_PHASE === "phase-production-build") {
    return deepFreeze({ ...values, APP_URL: "", NEXTAUTH_URL: "", APP_SECRET: "", NEXTAUTH_SECRET: "", FILE_STORAGE_DIR: "" });
  }
  if (missing.length > 0 && values.NODE_ENV === "production") {
    throw new Error(`Invalid environment: ${missing.join(" and ")} must be set in production (32+ random characters).`);
  }
  const fallback = missing.length > 0 ? devSecrets(values.DATA_DIR) : undefined;
  const appUrl = (values.APP_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, "");
  return deepFreeze({
    ...values,
    APP_URL: appUrl,
    NEXTAUTH_URL: values.NEXTAUTH_URL ?? appUrl,
    APP_SECRET: values.APP_SECRET ?? (values.DATABASE_URL ? null : fallback!.APP_SECRET),
    NEXTAUTH_SECRET: values.NEXTAUTH_SECRET ?? fallback!.NEXTAUTH_SECRET,
    FILE_STORAGE_DIR: values.FILE_STORAGE_DIR ?? path.join(values.DATA_DIR, "files"),
  });
}

export const env: Env = parseEnv(process.env);

/** APP_SECRET; a refusal naming it when it is not set for a server at DATABASE_URL (above). */
export function appSecret(): string {
  if (env.APP_SECRET !== null) return env.APP_SECRET;
  throw new MissingSetting(
    `APP_SECRET is not set. With DATABASE_URL set, the development secret in ${path.join(env.DATA_DIR, "dev-secrets.json")} does not apply: set APP_SECRET to the value the web server and the workers use (a new deployment makes one with \`openssl rand -hex 32\`).`,
  );
}
