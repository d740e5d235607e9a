#!/usr/bin/env node
// The compiled command line (dist/, built by `npm run build`, which installing the repository and `npm pack` run).
await import("../dist/command-line.js");
