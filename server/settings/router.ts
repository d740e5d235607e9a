/** The settings pages' API. Its type is all the browser imports from here. */
import { createApiKeyProcedure } from "./api-keys/create-api-key";
import { listApiKeysProcedure } from "./api-keys/list-api-keys";
import { revokeApiKeyProcedure } from "./api-keys/revoke-api-key";
import { router } from "./trpc";
import { backfillProcedure } from "./webhooks/backfill";
import { countBackfillProcedure } from "./webhooks/count-backfill";
import { countFailedSinceProcedure } from "./webhooks/count-failed-since";
import { createWebhookProcedure } from "./webhooks/create-webhook";
import { deleteWebhookProcedure } from "./webhooks/delete-webhook";
import { deliveryChartProcedure } from "./webhooks/delivery-chart";
import { expirePreviousSecretProcedure } from "./webhooks/expire-previous-secret";
import { getMessageProcedure } from "./webhooks/get-message";
import { getWebhookProcedure } from "./webhooks/get-webhook";
import { listMessagesProcedure } from "./webhooks/list-messages";
import { listWebhooksProcedure } from "./webhooks/list-webhooks";
import { resendFailedSinceProcedure } from "./webhooks/resend-failed-since";
import { resendMessageProcedure } from "./webhooks/resend-message";
import { revealWebhookHeadersProcedure } from "./webhooks/reveal-webhook-headers";
import { revealWebhookSecretProcedure } from "./webhooks/reveal-webhook-secret";
import { rotateWebhookSecretProcedure } from "./webhooks/rotate-webhook-secret";
import { searchCompanyLogProcedure } from "./webhooks/search-company-log";
import { searchInterviewsProcedure } from "./webhooks/search-interviews";
import { sendSampleProcedure } from "./webhooks/send-sample";
import { setWebhookEnabledProcedure } from "./webhooks/set-webhook-enabled";
import { updateWebhookProcedure } from "./webhooks/update-webhook";

export const settingsRouter = router({
  apiKeys: router({
    list: listApiKeysProcedure,
    create: createApiKeyProcedure,
    revoke: revokeApiKeyProcedure,
  }),
  webhooks: router({
    list: listWebhooksProcedure,
    get: getWebhookProcedure,
    create: createWebhookProcedure,
    update: updateWebhookProcedure,
    setEnabled: setWebhookEnabledProcedure,
    delete: deleteWebhookProcedure,
    revealSecret: revealWebhookSecretProcedure,
    revealHeaders: revealWebhookHeadersProcedure,
    rotateSecret: rotateWebhookSecretProcedure,
    chart: deliveryChartProcedure,
    messages: listMessagesProcedure,
    message: getMessageProcedure,
    searchLog: searchCompanyLogProcedure,
    resend: resendMessageProcedure,
    resendFailedSince: resendFailedSinceProcedure,
    countFailedSince: countFailedSinceProcedure,
    sendSample: sendSampleProcedure,
    searchInterviews: searchInterviewsProcedure,
    expirePreviousSecret: expirePreviousSecretProcedure,
    countBackfill: countBackfillProcedure,
    backfill: backfillProcedure,
  }),
});

export type SettingsRouter = typeof settingsRouter;
