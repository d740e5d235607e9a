/**
 * The web process behind Debian's PgBouncer in transaction mode, as
 * docs/operations.md's recipe sets it up: `?prepare=false` in the web's
 * DATABASE_URL, the startup parameters PgBouncer does not track ignored and
 * set on the database instead, and the worker connected directly (it
 * LISTENs, and graphile-worker prepares its statements by name).
 *
 * PgBouncer keeps 2 server connections for the web's 10, so one web
 * connection's transactions land on different server connections: a
 * prepared statement, a SET outside a transaction or a session lock would
 * fail a request, or show on a server connection once the traffic is over.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { type ApiCompany, apiCompany } from "../support/api-fixtures";
import type { TestDatabase } from "../support/database";
import { requireDebianTool } from "../support/debian-tools";
import { signInOverHttp } from "../support/http-sign-in";
import { useOwnDatabase } from "../support/own-database";
import { type PgBouncer, startPgBouncer, trackedParameters } from "../support/pgbouncer";
import { callApi, useTestServer } from "../support/server";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const hasPgBouncer = requireDebianTool("pgbouncer");
const password = "correct horse battery staple";

describe.skipIf(!hasPgBouncer)("the web process behind PgBouncer in transaction mode", { timeout: 120_000 }, () => {
  const own = useOwnDatabase("behind_pooler");
  let bouncer: PgBouncer;
  beforeAll(async () => {
    // The recipe's stand-in for the startup parameters PgBouncer drops.
    const database = new URL(own.url).pathname.slice(1);
    for (const setting of ["jit = off", "statement_timeout = '15s'", "idle_in_transaction_session_timeout = '15s'"]) {
      await own.handle.sql.unsafe(`alter database "${database}" set ${setting}`);
    }
    bouncer = await startPgBouncer(own.url);
  });
  afterAll(() => bouncer?.stop());

  const web = useTestServer(
    {
      get url() {
        return bouncer.url;
      },
      filesDir: mkdtempSync(path.join(tmpdir(), "interview-api-pgbouncer-files-")),
    } as TestDatabase,
    () => ({ WEBHOOK_ALLOW_TARGETS: own.receiver.target }),
  );
  const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: own.url, WEBHOOK_ALLOW_TARGETS: own.receiver.target, WEBHOOK_CA_FILE: own.caFile }));

  const companies: ApiCompany[] = [];
  beforeAll(async () => {
    for (const name of ["Pooled", "Bounced"]) companies.push(await apiCompany(own.ctx, name));
  });

  it("answers every /v1 endpoint, 8 requests at a time, each company seeing only its own data", async () => {
    const pathsOf = (company: ApiCompany) => [
      "/v1/me",
      "/v1/interviews",
      `/v1/interviews/${company.interview.id}`,
      "/v1/candidates?limit=5",
      `/v1/candidates/${company.submitted.id}`,
      `/v1/candidates/${company.submitted.id}/transcript`,
      `/v1/candidates/${company.submitted.id}/recording`,
      "/v1/events?limit=5",
    ];
    const requests = Array.from({ length: 12 }, () => companies.flatMap((company) => pathsOf(company).map((route) => ({ company, route })))).flat();
    const failures: string[] = [];
    for (let start = 0; start < requests.length; start += 8) {
      await Promise.all(
        requests.slice(start, start + 8).map(async ({ company, route }) => {
          const response = await callApi(web, route, { key: company.key });
          const text = JSON.stringify(response.body);
          const other = companies.find((each) => each !== company)!;
          if (response.status !== 200) failures.push(`${route}: ${response.status} ${text}`);
          else if (text.includes(other.submitted.id) || text.includes(other.interview.id)) failures.push(`${route}: shows ${other.companyId}'s data`);
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(requests.length).toBe(192);
  });

  it("signs an admin in, and the settings' tRPC calls read and write through it: a sample sent from them reaches the receiver", async () => {
    const company = companies[0]!;
    await createUser(own.ctx, { companyId: company.companyId, email: "ada@pooled.example", name: "Ada Admin", role: "admin", password });
    const webhook = await createWebhook(own.ctx, company.companyId, { url: own.receiver.url("/pooled") }, allowReceiver(own.receiver));
    await startWorker();
    const cookie = await signInOverHttp(web, "ada@pooled.example", password);
    const listed = await fetch(`${web.baseUrl}/api/trpc/webhooks.list`, { headers: { cookie } });
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain(webhook.id);

    const sent = await fetch(`${web.baseUrl}/api/trpc/webhooks.sendSample`, {
      method: "POST",
      headers: { cookie, origin: web.baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ id: webhook.id, interviewId: company.interview.id, eventType: "candidate.submitted" }),
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const [delivered] = await own.receiver.waitFor(1, 20_000);
    expect(delivered!.path).toBe("/pooled");
    expect(JSON.parse(delivered!.body)).toMatchObject({ type: "candidate.submitted" });
  });

  it("leaves no session state on either server connection, and the database's settings stand in for the dropped startup parameters", async () => {
    expect(web.logs()).not.toMatch(/prepared statement|unsupported startup parameter|"level":"error"/);
    // Two transactions open at once hold both of the pooler's server connections: each is inspected from inside.
    const pooled = postgres(bouncer.url, { max: 2, onnotice: () => {} });
    try {
      let opened = 0;
      let bothOpen!: () => void;
      const together = new Promise<void>((resolve) => (bothOpen = resolve));
      const connections = await Promise.all(
        [0, 1].map(() =>
          pooled.begin(async (tx) => {
            await tx`select 1`;
            if (++opened === 2) bothOpen();
            await together;
            const [state] = await tx`
              select pg_backend_pid() as pid,
                (select count(*)::int from pg_prepared_statements) as prepared,
                (select count(*)::int from pg_listening_channels()) as listening,
                (select count(*)::int from pg_locks where pid = pg_backend_pid() and locktype = 'advisory') as "advisoryLocks",
                (select coalesce(array_agg(name order by name), '{}') from pg_settings
                  where source = 'session' and not (name = any(${trackedParameters}::text[]))) as "sessionSettings",
                current_setting('jit') as jit, current_setting('statement_timeout') as "statementTimeout"`;
            return state!;
          }),
        ),
      );
      expect(new Set(connections.map((each) => each.pid)).size).toBe(2);
      for (const { pid, ...state } of connections) {
        expect(state, `server connection ${pid}`).toEqual({
          prepared: 0,
          listening: 0,
          advisoryLocks: 0,
          sessionSettings: [],
          jit: "off",
          statementTimeout: "15s",
        });
      }
    } finally {
      await pooled.end();
    }
  });
});
