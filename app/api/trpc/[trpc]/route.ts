import { handleSettingsRequest } from "@/server/settings/handler";

export const dynamic = "force-dynamic";

export { handleSettingsRequest as GET, handleSettingsRequest as POST };
