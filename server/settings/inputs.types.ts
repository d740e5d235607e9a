/**
 * The inputs every settings procedure shares, checked so that nothing a page
 * (or a hand-made request) sends can make PostgreSQL fail: ids without NUL,
 * and times PostgreSQL can store (the same rules as the API's, stored-values.ts).
 */
import { z } from "zod";
import { holdsNoNul, utcDateTime } from "@/server/read/stored-values";

/** The id of something the company has (a webhook, a message, a key); an unknown one is a 404, never a 500. */
export const recordId = z.string().min(1).max(200).refine(holdsNoNul, "is not an id: it contains a NUL character");

/** A moment picked on a page (a log filter, "since"): RFC 3339 with an offset, as the same instant in UTC within years 1 to 9999. */
export const pickedTime = z.iso.datetime({ offset: true }).transform(utcDateTime);

/** The input of every procedure that acts on one webhook and needs nothing else. */
export const webhookIdInput = z.object({ id: recordId });
