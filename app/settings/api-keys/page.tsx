import type { Metadata } from "next";
import { currentMember } from "@/server/auth/session";
import { AdminsOnly } from "../admins-only";
import { ApiKeysPanel } from "./api-keys-panel";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const member = await currentMember();
  if (member?.role !== "admin") return <AdminsOnly what="see and manage API keys" />;
  return <ApiKeysPanel />;
}
