import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { Badge } from "@/app/ui/badge";
import { languageName } from "@/app/ui/format";
import type { IncompleteReason, RecordingStatus, ResultState } from "@/db/schema";
import { appDatabase } from "@/server/app-database";
import { requireMember } from "@/server/auth/session";
import { type Candidate, readCandidate, readTranscript } from "@/server/read/candidates";
import { findRecording, type RecordingLookup } from "@/server/read/downloads";
import { holdsNoNul } from "@/server/read/stored-values";
import { sampleCandidateId } from "@/server/sample-candidate";
import { candidateDownloadPaths } from "./download-redirect";
import { LocalTime } from "./local-time";
import { SampleCandidate } from "./sample-candidate";

export const metadata: Metadata = { title: "Candidate" };
export const dynamic = "force-dynamic";

const resultStates: Record<ResultState, string> = {
  waiting: "Waiting: the candidate is still taking the interview, or the score or recording is still coming",
  complete: "Complete: the AI score and the recording are in",
  incomplete: "Incomplete: final, but something is missing",
  not_applicable: "Not applicable: the interview has no AI step",
};

const incompleteReasons: Record<IncompleteReason, string> = {
  not_submitted: "The attempt ended without being submitted.",
  interview_not_finished: "The AI interview was not finished.",
  too_little_speech: "The candidate spoke too little to be scored.",
  no_answers: "The candidate gave no answers.",
  scoring_failed: "Scoring failed.",
  recording_failed: "The recording did not arrive or could not be processed.",
  not_delivered_in_time: "The recording did not arrive in time.",
  other: "Something else went wrong.",
};

const recordingStates: Record<Exclude<RecordingStatus, "ready">, string> = {
  processing: "The recording is on its way; it may arrive up to about two days after the interview.",
  failed: "The recording did not arrive or could not be processed.",
  none: "The candidate's device recorded nothing.",
  deleted: "The recording was deleted after the retention period.",
};

function recordingNote(recording: RecordingLookup) {
  if (recording.kind === "unavailable" && recording.status && recording.status !== "ready") return recordingStates[recording.status];
  return "There is no recording to play.";
}

const statusTones: Partial<Record<Candidate["status"], "green" | "amber" | "red">> = {
  passed: "green",
  shortlisted: "green",
  needs_review: "amber",
  on_hold: "amber",
  in_progress: "amber",
  did_not_pass: "red",
  rejected: "red",
};

const fileSize = (bytes: number | null) =>
  bytes === null ? "" : bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A candidate's page, where the API's `dashboard_url` leads: what the API
 * returns for them (the same read services), for any signed-in member of
 * their company. Its download links are signed when followed
 * (./download-redirect.ts), so they work however long the page stays open.
 */
export default async function CandidatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const member = await requireMember();
  if (!holdsNoNul(id)) notFound();
  if (id === sampleCandidateId) return <SampleCandidate />;
  const { sql } = appDatabase();
  const candidate = await readCandidate(sql, member.companyId, id);
  if (!candidate) notFound();
  const [transcript, recording] = await Promise.all([readTranscript(sql, member.companyId, id), findRecording(sql, member.companyId, id, new Date())]);
  const { result, ai_interview: ai } = candidate;

  return (
    // Nearly all of it was typed by the candidate or the team: long words wrap rather than widen the page.
    <div className="space-y-6 wrap-anywhere">
      <div>
        <p className="text-sm text-slate-600">
          {candidate.interview.title} · attempt {candidate.attempt}
        </p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">{candidate.name}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {candidate.email}
          {candidate.phone && ` · ${candidate.phone}`}
        </p>
        <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
          <span data-testid="candidate-status">
            <Badge tone={statusTones[candidate.status] ?? "slate"}>{candidate.status_label}</Badge>
          </span>
          {candidate.rejection_reason && <span className="text-slate-700">Reason: {candidate.rejection_reason}</span>}
          <span className="text-slate-600">
            Started <LocalTime iso={candidate.started_at} />
          </span>
          <span className="text-slate-600">
            Submitted <LocalTime iso={candidate.submitted_at} />
          </span>
        </div>
      </div>

      <Section title="Result">
        <p data-testid="candidate-result">{resultStates[result.state]}</p>
        {result.incomplete_reason && <p className="mt-1">{incompleteReasons[result.incomplete_reason]}</p>}
        {result.score !== null && (
          <p className="mt-2">
            Score <strong>{result.score}</strong> of 100
            {result.pass_mark !== null && ` (pass mark ${result.pass_mark})`}
            {result.recommendation_label && ` · ${result.recommendation_label}`}
          </p>
        )}
        {result.ended_for_conduct && <p className="mt-2 text-red-800">The AI interview was ended for repeated conduct violations.</p>}
        {result.summary && <p className="mt-2 text-slate-700">{result.summary}</p>}
        <div className="mt-3 grid gap-4 sm:grid-cols-3">
          <List title="Strengths" items={result.strengths} />
          <List title="Areas to improve" items={result.areas_to_improve} />
          <List title="Skills" items={Object.entries(result.skills).map(([skill, value]) => `${skill}: ${value}`)} />
        </div>
        {result.highlights.length > 0 && (
          <ul className="mt-3 space-y-2">
            {result.highlights.map((highlight) => (
              <li key={highlight.quote} className="rounded-md bg-slate-50 p-3">
                <q className="italic">{highlight.quote}</q>
                <p className="mt-1 text-slate-600">
                  <span className="font-medium capitalize">{highlight.type}</span>: {highlight.why}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Answers">
        {Object.keys(candidate.answers).length === 0 ? (
          <p className="text-slate-600">No form answers.</p>
        ) : (
          <dl className="space-y-3" data-testid="candidate-answers">
            {Object.entries(candidate.answers).map(([questionId, answer]) => (
              <div key={questionId}>
                <dt className="font-medium">{answer.question}</dt>
                <dd className="text-slate-700">{answer.answer}</dd>
              </div>
            ))}
          </dl>
        )}
      </Section>

      <Section title="Documents">
        {candidate.documents.length === 0 ? (
          <p className="text-slate-600">No documents.</p>
        ) : (
          <ul className="space-y-2">
            {candidate.documents.map((document) => (
              <li key={document.id} className="flex flex-wrap items-center gap-3">
                <span className="font-medium">{document.label || "Document"}</span>
                <span className="text-slate-600">
                  {document.file_name} {document.size_bytes !== null && `(${fileSize(document.size_bytes)})`}
                </span>
                <a href={candidateDownloadPaths.document(candidate.id, document.id)} className="font-medium text-indigo-700 underline">
                  Download
                </a>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="AI interview">
        {!ai ? (
          <p className="text-slate-600">The AI interview has not started, or the interview has none.</p>
        ) : (
          <>
            <p>
              {ai.mode === "video" ? "Video" : "Audio only"} in {languageName(ai.language)}
              {ai.duration_seconds !== null && `, ${Math.round(ai.duration_seconds / 60)} minutes`} · {ai.questions_answered} of {ai.questions_asked} questions
              answered
            </p>
            <h3 className="mt-4 font-medium">Recording</h3>
            {recording.kind === "ready" ? (
              <>
                {/* biome-ignore lint/a11y/useMediaCaption: the transcript below is the recording's text */}
                <audio controls preload="none" src={candidateDownloadPaths.recording(candidate.id)} className="mt-2 w-full" data-testid="candidate-recording" />
                <a href={candidateDownloadPaths.recording(candidate.id)} className="mt-1 inline-block text-indigo-700 underline">
                  Download the recording
                </a>
              </>
            ) : (
              <p className="mt-1 text-slate-600">{recordingNote(recording)}</p>
            )}
            <h3 className="mt-4 font-medium">Transcript</h3>
            {!transcript || transcript.length === 0 ? (
              <p className="mt-1 text-slate-600">No transcript yet.</p>
            ) : (
              <ol className="mt-2 space-y-3" data-testid="candidate-transcript">
                {transcript.map((entry) => (
                  <li key={entry.index}>
                    <p className="font-medium">
                      {entry.index + 1}. {entry.question}
                    </p>
                    <p className="text-slate-700">{entry.answer || "(no answer)"}</p>
                    <p className="text-xs text-slate-500">{entry.speaking_seconds} seconds of speech</p>
                  </li>
                ))}
              </ol>
            )}
          </>
        )}
      </Section>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 className="mb-3 text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function List({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <h3 className="font-medium">{title}</h3>
      <ul className="mt-1 list-disc pl-5 text-slate-700">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}
