"use client";
import { useState } from "react";
import { Button } from "./button";

/** `ariaLabel` names what is copied when the visible label alone would be ambiguous (one "Copy" per row). */
export function CopyButton({ value, label = "Copy", ariaLabel, className }: { value: string; label?: string; ariaLabel?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      aria-label={ariaLabel}
      className={className}
      onClick={async () => {
        await navigator.clipboard.writeText(value);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </Button>
  );
}
