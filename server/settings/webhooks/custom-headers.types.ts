import { z } from "zod";

/** Custom headers with their values: only in the answer to the admin who saved or revealed them. */
export const customHeadersWithValues = z.array(z.object({ name: z.string(), value: z.string() }));
