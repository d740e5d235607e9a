import type { Command, StandaloneCommand } from "../arguments";
import { accountCommands } from "./accounts";
import { demoCommands } from "./demo";
import { listenCommands } from "./listen";
import { webhookCommands } from "./webhooks";

export const commands: Record<string, Command | StandaloneCommand> = { ...accountCommands, ...demoCommands, ...webhookCommands, ...listenCommands };
