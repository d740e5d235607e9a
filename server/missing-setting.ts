/**
 * A setting that what was asked needs is not set: the process or the command
 * refuses, and its message names the setting and what to set it to. Apart
 * from server/env.ts, whose import already reads the settings, so that the
 * CLI can tell this refusal from a fault before it reads them.
 */
export class MissingSetting extends Error {
  override name = "MissingSetting";
}
