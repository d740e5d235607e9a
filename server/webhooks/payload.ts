/**
 * The body of a message: the Event shape of spec 2.9 with the candidate's
 * latest data, rendered at every attempt, and `change` as frozen at the time.
 * A sample's body was made up once and is sent as it is.
 */
import type postgres from "postgres";
import type { EventType, StatusChange } from "@/db/schema";
import { getCandidatesById } from "@/server/read/candidates";
import { renderEvent } from "@/server/read/events";

type MessageForBody = {
  companyId: string;
  eventId: string;
  candidateId: string | null;
  sampleBody: unknown;
};

/** The JSON text to send, or null when the event or its candidate no longer exists. */
export async function renderBody(sql: postgres.Sql, message: MessageForBody): Promise<string | null> {
  if (message.sampleBody) return JSON.stringify(message.sampleBody);
  const [event] = await sql<Array<{ id: string; type: EventType; created_at: Date; change: StatusChange | null; candidate_id: string }>>`
    select id, type, created_at, change, candidate_id from events where id = ${message.eventId} and company_id = ${message.companyId}`;
  if (!event) return null;
  const candidate = (await getCandidatesById(sql, message.companyId, [event.candidate_id])).get(event.candidate_id);
  if (!candidate) return null;
  return JSON.stringify(renderEvent(event, candidate));
}
