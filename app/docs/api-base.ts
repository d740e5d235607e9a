import { env } from "@/server/env";

/** The API's address on this deployment, so the guides' examples work as pasted. */
export const apiBase = () => `${env.APP_URL}/v1`;
