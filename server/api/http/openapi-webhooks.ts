/**
 * The `webhooks` section of /v1/openapi.json (OpenAPI 3.1): the request we
 * send for each event type (spec 6.2), so that integrators, their tools and
 * generated clients learn the receiving side from the same document as the
 * API. The body is the `Event` component that GET /v1/events returns; the
 * headers are those of server/webhooks/delivery/delivery-headers.ts, which
 * tests/api/openapi.test.ts compares with real deliveries.
 */
import { type EventType, eventTypes } from "@/db/schema";
import type { WebhookExample } from "@/server/examples/openapi-examples";

/** When each type is sent (spec 6). */
const whenSent: Record<EventType, { summary: string; description: string }> = {
  "candidate.submitted": {
    summary: "A candidate submitted an attempt",
    description: "Once per attempt, when the candidate has finished every step.",
  },
  "candidate.scored": {
    summary: "An attempt was scored",
    description:
      "Once per attempt, when the AI score is saved; never before `candidate.submitted`. Not sent when the interview could not be scored. " +
      "A webhook can be set to receive it only when the score is at least a number, or the recommendation is one of those chosen.",
  },
  "candidate.ready": {
    summary: "An attempt's result is final",
    description:
      "Once per attempt, when `result.state` becomes final: `complete`, `incomplete` (see `result.incomplete_reason`) or `not_applicable`. " +
      "Afterwards nothing more arrives for the attempt except status changes. " +
      "A webhook can be set to receive it only when the score is at least a number, or the recommendation is one of those chosen (a candidate without a score matches neither).",
  },
  "candidate.status_changed": {
    summary: "A candidate's status changed",
    description:
      "On every status change after submission, by the AI or the team; `change` holds `from`, `to` and `by`. " +
      "A webhook can be set to receive it only when `change.to` is one of the statuses chosen.",
  },
};

const delivery = `Sent as an HTTPS POST of the \`Event\` (the same object as in GET /v1/events), with the candidate's latest data at the time of sending; \`change\` keeps what changed at the time.

- **Answer** with any 2xx status within 10 seconds. Anything else, a redirect (not followed) or no answer counts as a failure: retried after 1, 5 and 30 minutes, then 2, 6, 12, 24 and 24 hours (9 tries).
- **Repeats** can happen: \`id\` (and \`Service-Event-Id\`, \`webhook-id\`) stays the same, so ignore an id already handled.
- **Order**: messages about one candidate arrive in the order they happened.
- **Verify** with the raw body as received, by either header family: \`Service-Signature\` (Stripe's scheme) or \`webhook-signature\` (Standard Webhooks), both keyed with the webhook's signing secret.
- **Custom headers**: besides the headers below, a webhook can carry up to 5 headers of the admin's choosing on every try, retry, resend, sample and past event (for a receiver that checks its own API key or \`Authorization\` header). Their names cannot be \`Host\`, \`Content-Length\`, \`Content-Type\`, \`Transfer-Encoding\`, \`Connection\`, \`User-Agent\` or start with \`Service-\`, \`webhook-\`, \`Proxy-\` or \`Sec-\`.
- **Conditions**: a webhook receives only its chosen event types and interviews and, when set, only the events its conditions let through (see each type); an event that does not match is never sent to it and holds back none of its later messages. Samples (\`"test": true\`) are sent whatever the conditions.`;

const base58 = "[1-9A-HJ-NP-Za-km-z]+";
const base64 = "[A-Za-z0-9+/]+={0,2}";
const digits = { type: "string", pattern: "^[0-9]+$" };

/** Every header a delivery carries but `Content-Type` (OpenAPI describes that one with the body), in the order it is sent. */
export function webhookHeaderSchemas(type: EventType): Record<string, { description: string; schema: object }> {
  return {
    "User-Agent": {
      description: "`InterviewAPI-Webhooks/1.0 (+<the service's address>)`.",
      schema: { type: "string", pattern: "^InterviewAPI-Webhooks/" },
    },
    "Service-Event-Id": {
      description: "The event's id, equal to the body's `id`; the same on every retry and resend. Use it to ignore repeats.",
      schema: { type: "string", pattern: `^evt_${base58}$` },
    },
    "Service-Event-Type": { description: "The event type, equal to the body's `type`.", schema: { type: "string", const: type } },
    "Service-Delivery-Attempt": {
      description: "1 for the first try, 2 for the first retry, and so on, at most 9.",
      schema: { type: "string", pattern: "^[1-9]$" },
    },
    "Service-Signature": {
      description:
        "`t=<unix seconds>,v1=<hex digest>`: a hex HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's whole signing secret, " +
        "`whsec_` prefix included. During the 24 hours after the secret is replaced it holds two `v1` values, one per secret: " +
        "accept the message when one matches. Reject it when `t` is more than 5 minutes from your clock. " +
        "Stripe's libraries verify it as it is, e.g. `stripe.webhooks.constructEvent(rawBody, header, secret)`.",
      schema: { type: "string", pattern: "^t=[0-9]+(,v1=[0-9a-f]{64}){1,2}$" },
    },
    "webhook-id": {
      description: "[Standard Webhooks](https://www.standardwebhooks.com): the message id, equal to `Service-Event-Id`.",
      schema: { type: "string", pattern: `^evt_${base58}$` },
    },
    "webhook-timestamp": {
      description: "Standard Webhooks: when the message was signed, in unix seconds (the `t` of `Service-Signature`).",
      schema: digits,
    },
    "webhook-signature": {
      description:
        "Standard Webhooks: `v1,<base64 digest>`, a base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the bytes " +
        "that the secret's part after `whsec_` decodes to; during the 24 hours after a replacement, two values separated by a space. " +
        "Any Standard Webhooks library verifies it with the secret as shown, e.g. `new Webhook(secret).verify(rawBody, headers)`.",
      schema: { type: "string", pattern: `^v1,${base64}( v1,${base64})?$` },
    },
  };
}

export function webhooksSection(examples: Record<string, WebhookExample>) {
  return Object.fromEntries(
    eventTypes.map((type) => {
      const example = examples[type];
      const parameters = Object.entries(webhookHeaderSchemas(type)).map(([name, header]) => ({
        name,
        in: "header" as const,
        required: true,
        ...header,
        ...(example?.headers[name] === undefined ? {} : { example: example.headers[name] }),
      }));
      const operation = {
        operationId: type.replace(/[._](.)/g, (_, letter: string) => letter.toUpperCase()),
        summary: whenSent[type].summary,
        description: `${whenSent[type].description}\n\n${delivery}`,
        tags: ["Webhooks"],
        parameters,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/Event" },
              ...(example ? { examples: { [type]: { summary: example.summary, description: example.description, value: example.body } } } : {}),
            },
          },
        },
        responses: {
          "2XX": { description: "Received: any 2xx status within 10 seconds. The body is ignored." },
          default: { description: "A failure: the message is sent again later (see above), with `Service-Delivery-Attempt` one higher." },
        },
      };
      return [type, { post: operation }];
    }),
  );
}
