/**
 * The layer rules (`npm run lint:layers`, part of `npm test`). A change that
 * breaks one fails with the rule's name. Tests may import anything.
 */
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
        "server/api/ is the public API's own code: only what serves it (app/downloads, and the web server, which mounts /v1 itself) and itself import it. Its generated examples are data that the settings' event catalog shows too, and its error envelope is what the web server's edge answers with before a request reaches a route.",
      from: { pathNot: "^(app/downloads/|server/api/|tests/|server/runtime/web-server\\.ts$)" },
      to: { path: "^server/api/", pathNot: "^server/api/http/(openapi-examples\\.(ts|json)|error-envelope\\.ts)$" },
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
      comment: "The web app and the services never import the worker process.",
      from: { pathNot: "^(worker|tests)/|^server/runtime/" },
      to: { path: "^worker/" },
    },
    {
      name: "client-is-publishable",
      severity: "error",
      comment: "clients/typescript is published on its own: it imports nothing of the product.",
      from: { path: "^clients/" },
      to: { path: "^(app|server|db|worker|tests)/" },
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
    exclude: { path: "^(node_modules|\\.next|test-artifacts|clients/typescript/dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
