import type { Command } from "../arguments";
import { accountCommands } from "./accounts";
import { demoCommands } from "./demo";
import { webhookCommands } from "./webhooks";

export const commands: Record<string, Command> = { ...accountCommands, ...demoCommands, ...webhookCommands };
