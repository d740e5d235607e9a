/**
 * The OpenAPI path of every procedure of a router (`/candidates/{id}`). The
 * one place that reads tRPC's internal `_def` (its procedure record), which
 * only the pinned @trpc/server 11 guarantees; trpc-to-openapi's public
 * `forEachOpenApiProcedure` reads the rest. The OpenAPI document has the same
 * paths through public API alone, but building it takes a tenth of a second or
 * more, which the first request would wait for: tests/api/procedure-paths.test.ts
 * checks that both agree, so an upgrade that moves `_def` fails there.
 */
import type { AnyRouter } from "@trpc/server";
import { forEachOpenApiProcedure, type OpenApiProcedureRecord } from "trpc-to-openapi";

export function procedurePaths(router: AnyRouter): string[] {
  const paths: string[] = [];
  forEachOpenApiProcedure(router._def.procedures as OpenApiProcedureRecord, ({ meta }) => paths.push(meta.openapi.path));
  return paths;
}
