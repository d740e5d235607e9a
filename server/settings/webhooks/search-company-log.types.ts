import { z } from "zod";
import { messageView } from "@/server/webhooks/views/message-view.types";
import { logSearch } from "./log-search.types";

export const searchCompanyLogInput = z.object({ search: logSearch });

/** A message found on any of the company's webhooks, with the webhook it went to (its address masked for members). */
export const companyMessageView = messageView.extend({ webhook: z.object({ id: z.string(), name: z.string().nullable(), address: z.string() }) });

export const searchCompanyLogOutput = z.object({ messages: z.array(companyMessageView), limited: z.boolean() });
