/**
 * The route template a /v1 path stands for (`/v1/candidates/{id}`), for
 * metrics and logs: ids never become label values. The templates are the
 * procedures' own OpenAPI paths, so a new endpoint is known without a list.
 */
import { v1Router } from "../v1/router";
import { procedurePaths } from "./procedure-paths";

type Template = { template: string; pattern: RegExp };

let templates: Template[] | undefined;

function knownTemplates(): Template[] {
  templates ??= procedurePaths(v1Router).map((path) => ({
    template: `/v1${path}`,
    pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  return templates;
}

/** The template of a path below /v1 (`/candidates/abc`), or `unmatched` for a path no endpoint serves. */
export function endpointTemplate(path: string): string {
  return knownTemplates().find(({ pattern }) => pattern.test(path))?.template ?? "unmatched";
}

const methods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The method as a label: anything unusual is `other`, so callers cannot make new series. */
export const methodLabel = (method: string) => (methods.has(method) ? method : "other");
