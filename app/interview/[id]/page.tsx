import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { languageName } from "@/app/ui/format";
import type { InterviewStatus } from "@/db/schema";
import { appDatabase } from "@/server/app-database";
import { readInterviewForCandidates } from "@/server/read/interviews";
import { holdsNoNul } from "@/server/read/stored-values";

export const metadata: Metadata = { title: "Your interview" };
export const dynamic = "force-dynamic";

const availability: Record<InterviewStatus, { open: boolean; text: string }> = {
  active: { open: true, text: "This interview is open." },
  draft: { open: false, text: "This interview has not opened yet. Try again later, or ask the company when it opens." },
  paused: { open: false, text: "This interview is paused and takes no new candidates right now. Try again later." },
  closed: { open: false, text: "This interview is closed and takes no more candidates." },
};

/**
 * Where the API's `candidate_link` leads: what the interview is and what to
 * expect, for anyone with the link. It shows the interview and its company
 * only, never a candidate. Taking the interview happens in the interview
 * product, which this service does not include.
 */
export default async function InterviewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!holdsNoNul(id)) notFound();
  const found = await readInterviewForCandidates(appDatabase().sql, id);
  if (!found) notFound();
  const { interview, companyName } = found;
  const { form, ai_interview: ai, document } = interview.steps;
  const state = availability[interview.status];

  return (
    <main className="mx-auto max-w-2xl px-6 py-12">
      <p className="text-sm font-medium text-slate-600">{companyName}</p>
      <h1 className="mt-1 text-3xl font-semibold tracking-tight">{interview.title}</h1>
      <p className="mt-3 text-slate-700">
        {ai
          ? `An AI-led first interview for ${companyName}: an AI interviewer asks the questions and ${companyName} reads your answers and the AI's assessment.`
          : `A first interview for ${companyName}, answered online in your own time.`}
      </p>
      <p role="status" className={`mt-4 rounded-md p-3 text-sm ${state.open ? "bg-green-50 text-green-900" : "bg-amber-50 text-amber-900"}`}>
        {state.text}
        {state.open &&
          (interview.access_mode === "invite_only"
            ? " It is by invitation only: use the link in the invitation you received."
            : " Anyone with this link may take it.")}
      </p>

      <h2 className="mt-8 text-lg font-semibold">What to expect</h2>
      <ol className="mt-3 list-decimal space-y-3 pl-5 text-slate-700">
        {form && (
          <li>
            A short form of {form.questions.length} {form.questions.length === 1 ? "question" : "questions"} ({form.questions.filter((q) => q.required).length}{" "}
            required).
          </li>
        )}
        {ai && (
          <li>
            An interview with an AI interviewer by {ai.mode === "video" ? "video (camera and microphone)" : "audio only (microphone)"} in{" "}
            {languageName(ai.language)}: about {ai.question_count} questions, up to {ai.time_limit_minutes} minutes.{" "}
            {ai.type === "scripted" ? "It asks the company's own questions." : "It asks its own questions about the role."} It is recorded and transcribed
            {ai.skills.length > 0 ? `, and your answers are assessed on: ${ai.skills.join(", ")}.` : "."}
          </li>
        )}
        {document && (
          <li>
            Uploading a document: {document.label}
            {document.description && ` (${document.description})`}
            {document.accepted_types.length > 0 && `, as ${document.accepted_types.join(", ")}`}
            {document.required ? "." : " (optional)."}
          </li>
        )}
      </ol>

      <h2 className="mt-8 text-lg font-semibold">Before you start</h2>
      <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-700">
        <li>Set aside enough time to finish in one go{ai ? `: the AI interview alone takes up to ${ai.time_limit_minutes} minutes` : ""}.</li>
        {ai && <li>Find a quiet place and allow your browser to use your {ai.mode === "video" ? "camera and microphone" : "microphone"}.</li>}
      </ul>

      <h2 className="mt-8 text-lg font-semibold">How to start</h2>
      <p className="mt-3 text-slate-700">
        The interview itself runs in the interview app, which this site does not include, so there is no start button here. Use the start link {companyName}{" "}
        sent you, or ask {companyName} how to begin.
      </p>
    </main>
  );
}
