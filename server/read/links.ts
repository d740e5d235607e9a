/** Addresses the API hands out. All are absolute, built from APP_URL. */
import { env } from "@/server/env";

export const links = {
  candidateLink: (interviewId: string) => `${env.APP_URL}/interview/${interviewId}`,
  dashboard: (candidateId: string) => `${env.APP_URL}/candidates/${candidateId}`,
  transcript: (candidateId: string) => `${env.APP_URL}/v1/candidates/${candidateId}/transcript`,
  recording: (candidateId: string) => `${env.APP_URL}/v1/candidates/${candidateId}/recording`,
  file: (fileId: string) => `${env.APP_URL}/v1/files/${fileId}`,
  download: (token: string) => `${env.APP_URL}/downloads/${token}`,
};

export const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);
