#!/usr/bin/env node
// The package ships its TypeScript sources; tsx runs them without a build step.
import { register } from "tsx/esm/api";

register();
await import("../src/command-line.ts");
