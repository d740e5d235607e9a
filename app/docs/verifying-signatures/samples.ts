/**
 * The verification samples, as the guide shows them. The tests run the Node
 * and Python ones, and the Go one where Go is installed, against signatures
 * made by server/webhooks/delivery/signature.ts (tests/docs/guide-samples.test.ts).
 */

/**
 * The Node samples are ES modules: named `.mjs`, they run as pasted into any
 * project, also one `npm init -y` made (CommonJS unless it says otherwise).
 */
export const nodeSampleFile = "verify.mjs";

export const nodeStandardLibrary = `import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the body exactly as received (a Buffer or a string), before any JSON parsing.
// signatureHeader: the Service-Signature header. secret: the webhook's whole secret, whsec_ included.
export function isSignedByUs(rawBody, signatureHeader, secret) {
  const fields = signatureHeader.split(",").map((field) => field.split("="));
  const timestamp = fields.find(([name]) => name === "t")?.[1] ?? "";
  if (!/^\\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac("sha256", secret).update(\`\${timestamp}.\`).update(rawBody).digest();
  // During the 24 hours after the secret is replaced there are two v1 values: one matching is enough.
  return fields
    .filter(([name]) => name === "v1")
    .some(([, value = ""]) => {
      const given = Buffer.from(value, "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}`;

export const nodeExpressUsage = `import express from "express";
import { isSignedByUs } from "./verify.mjs";

const app = express();

// express.raw keeps the exact bytes; express.json would parse them and the signature could not be checked.
app.post("/webhooks/interviews", express.raw({ type: "application/json" }), (req, res) => {
  if (!isSignedByUs(req.body, req.get("Service-Signature") ?? "", process.env.WEBHOOK_SECRET)) {
    return res.sendStatus(400);
  }
  const event = JSON.parse(req.body.toString("utf8"));
  res.sendStatus(204); // answer within 10 seconds, then do the work
  handleLater(event);
});`;

export const pythonStandardLibrary = `import hashlib
import hmac
import time


def is_signed_by_us(raw_body: bytes, signature_header: str, secret: str) -> bool:
    """raw_body: the body exactly as received. secret: the webhook's whole secret, whsec_ included."""
    fields = [field.partition("=") for field in signature_header.split(",")]
    timestamp = next((value for name, _, value in fields if name == "t"), "")
    if not (timestamp.isascii() and timestamp.isdigit()) or abs(time.time() - int(timestamp)) > 300:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    # During the 24 hours after the secret is replaced there are two v1 values: one matching is enough.
    return any(hmac.compare_digest(value.encode(), expected.encode()) for name, _, value in fields if name == "v1")`;

export const pythonFlaskUsage = `import os

from flask import Flask, request

from verify import is_signed_by_us

app = Flask(__name__)


@app.post("/webhooks/interviews")
def interview_webhook():
    # get_data() is the raw body; verify it before parsing it.
    if not is_signed_by_us(request.get_data(), request.headers.get("Service-Signature", ""), os.environ["WEBHOOK_SECRET"]):
        return "", 400
    event = request.get_json()
    handle_later(event)  # answer within 10 seconds, then do the work
    return "", 204`;

export const goStandardLibrary = `package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// IsSignedByUs checks the Service-Signature header against the raw body.
// secret is the webhook's whole secret, whsec_ included.
func IsSignedByUs(rawBody []byte, signatureHeader, secret string) bool {
	var timestamp string
	var given [][]byte
	for _, field := range strings.Split(signatureHeader, ",") {
		name, value, _ := strings.Cut(field, "=")
		switch name {
		case "t":
			timestamp = value
		case "v1":
			if signature, err := hex.DecodeString(value); err == nil {
				given = append(given, signature)
			}
		}
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return false
	}
	if age := time.Since(time.Unix(seconds, 0)); age > 5*time.Minute || age < -5*time.Minute {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(rawBody)
	expected := mac.Sum(nil)
	// During the 24 hours after the secret is replaced there are two v1 values: one matching is enough.
	for _, signature := range given {
		if hmac.Equal(signature, expected) {
			return true
		}
	}
	return false
}`;

export const goNetHttpUsage = `func interviewWebhook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body) // the raw body, before any JSON decoding
	if err != nil || !webhooks.IsSignedByUs(body, r.Header.Get("Service-Signature"), os.Getenv("WEBHOOK_SECRET")) {
		http.Error(w, "invalid signature", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusNoContent) // answer within 10 seconds, then do the work
	go handleLater(body)
}`;

export const nodeStripe = `import Stripe from "stripe";

// Stripe's library checks our Service-Signature value as it checks its own; no Stripe account or key is involved.
// Throws when no v1 value matches or t is more than 300 seconds old; returns the parsed body.
export function verifiedEvent(rawBody, signatureHeader, secret) {
  return Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, 300);
}`;

export const pythonStripe = `import stripe


def verified_event(raw_body: bytes, signature_header: str, secret: str):
    # Raises stripe's SignatureVerificationError when no v1 value matches or t is more than 300 seconds old;
    # returns the parsed body.
    return stripe.Webhook.construct_event(raw_body, signature_header, secret, tolerance=300)`;

export const goStripe = `import "github.com/stripe/stripe-go/v82/webhook" // the major version your go.mod uses

// ValidatePayload, not ConstructEvent: ConstructEvent also compares the body's api_version
// with the library's Stripe API version, and refuses ours ("v1").
// It fails when no v1 value matches or t is more than 300 seconds old.
err := webhook.ValidatePayload(body, r.Header.Get("Service-Signature"), secret)`;

export const nodeStandardWebhooks = `import { Webhook } from "standardwebhooks";

// headers: the request's headers with lower-case names (Node's req.headers will do).
// secret: the webhook's whole secret; the library decodes the part after whsec_.
// Throws when no signature matches or the timestamp is more than 5 minutes away; returns the parsed body.
export function verifiedEvent(rawBody, headers, secret) {
  return new Webhook(secret).verify(rawBody, headers);
}`;

export const pythonStandardWebhooks = `from standardwebhooks.webhooks import Webhook


def verified_event(raw_body: bytes, headers, secret: str):
    # Raises WebhookVerificationError when no signature matches or the timestamp is more than
    # 5 minutes away; returns the parsed body. secret: the webhook's whole secret, whsec_ included.
    return Webhook(secret).verify(raw_body, dict(headers))`;

export const goStandardWebhooks = `import standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

wh, err := standardwebhooks.NewWebhook(secret) // the whole secret, whsec_ included
// ...
// Fails when no signature matches or webhook-timestamp is more than 5 minutes away.
err = wh.Verify(body, r.Header)`;
