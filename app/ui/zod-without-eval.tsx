"use client";
import { z } from "zod";

// Zod compiles validators with `new Function` where it may, and probes
// whether it may the first time it validates an object (the forms, Scalar's
// configuration on /docs). Every page's policy refuses eval, so the probe is
// refused and reported as a violation, even though zod copes. Zod skips the
// probe when told not to compile. Only in the browser: on the server this
// module is also evaluated (server rendering), and the API's own zod there
// must keep compiling its validators.
if (typeof window !== "undefined") z.config({ jitless: true });

/** Rendered by the root layout, so that this module runs on every page before anything validates. */
export function ZodWithoutEval() {
  return null;
}
