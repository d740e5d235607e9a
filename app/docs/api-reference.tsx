"use client";
import "@scalar/api-reference-react/style.css";
import type { AnyApiReferenceConfiguration } from "@scalar/types/api-reference";
import dynamic from "next/dynamic";

// Scalar mounts a Vue app into the page: it runs in the browser only.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((module) => module.ApiReferenceReact), {
  ssr: false,
  loading: () => <p className="px-6 py-10 text-slate-600">Loading the API reference…</p>,
});

const configuration: AnyApiReferenceConfiguration = {
  // The document the API serves, from this origin, so the reference always matches the running API.
  url: "/v1/openapi.json",
  // Nothing may come from another origin: Scalar's own fonts come from its CDN,
  // telemetry is on by default, and its AI agent turns itself on at local
  // addresses. No `proxyUrl`: test requests go straight to this API.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  // The developer toolbar offers to upload the document to Scalar's registry.
  showDeveloperTools: "never",
  // The rest of the product is light; a toggle would switch only this part.
  forceDarkModeState: "light",
  hideDarkModeToggle: true,
};

export function ApiReference() {
  return <ApiReferenceReact configuration={configuration} />;
}
