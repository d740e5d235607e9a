import type { Mailer } from "@/server/notifications/email";
import type { DeliveryDeps } from "@/server/webhooks/delivery/deps";

/** What the worker's tasks share: the webhook services' needs and the mailer. */
export type WorkerDeps = DeliveryDeps & { mailer: Mailer | null };
