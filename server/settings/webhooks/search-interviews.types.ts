import { z } from "zod";

export const searchInterviewsInput = z.object({ query: z.string().trim().max(200).default("") });
export const searchInterviewsOutput = z.object({ interviews: z.array(z.object({ id: z.string(), title: z.string() })) });
