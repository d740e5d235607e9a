/**
 * server/api/http/procedure-paths.ts reads tRPC's internal procedure record
 * (`_def`), which only the pinned @trpc/server guarantees. The OpenAPI
 * document lists the same paths through public API alone: when an upgrade
 * moves `_def`, the two disagree here, before the metrics' endpoint labels
 * turn to `unmatched`.
 */
import { expect, it } from "vitest";
import { endpointTemplate } from "@/server/api/http/endpoint-templates";
import { openApiDocument } from "@/server/api/http/openapi-document";
import { procedurePaths } from "@/server/api/http/procedure-paths";
import { v1Router } from "@/server/api/v1/router";

it("finds every path of the OpenAPI document, and no other", () => {
  const documented = Object.keys(openApiDocument().paths ?? {});
  expect(documented.length).toBeGreaterThan(5);
  expect(procedurePaths(v1Router).sort()).toEqual(documented.sort());
});

it("labels a request by its endpoint's template, and a path no endpoint serves as unmatched", () => {
  expect(endpointTemplate("/candidates/cand_abc")).toBe("/v1/candidates/{id}");
  expect(endpointTemplate("/candidates/cand_abc/transcript")).toBe("/v1/candidates/{id}/transcript");
  expect(endpointTemplate("/nothing/here")).toBe("unmatched");
});
