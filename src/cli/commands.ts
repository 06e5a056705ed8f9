import type { Command } from "./io.js";
import { agentCommand } from "./agent.js";
import { reportCommand } from "./report.js";
import { researchCommand } from "./research.js";
import { pathsCommand } from "./paths.js";
import { resumeCommand } from "./resume.js";
import { historyCommand } from "./history.js";
import { diagramCommand } from "./diagram.js";
import { checkCommand } from "./check.js";
import { inspectCommand } from "./inspect.js";
import { testCommand } from "./test.js";
import { migrateCommand } from "./migrate.js";

/** Every `tsg` subcommand by name. Each lives in its own file. */
export const commands: Readonly<Record<string, Command>> = {
  report: reportCommand,
  agent: agentCommand,
  research: researchCommand,
  paths: pathsCommand,
  resume: resumeCommand,
  history: historyCommand,
  migrate: migrateCommand,
  diagram: diagramCommand,
  check: checkCommand,
  inspect: inspectCommand,
  test: testCommand,
};
