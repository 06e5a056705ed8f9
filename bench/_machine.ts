/** The machine a benchmark ran on. Shared machines are noisy: the load average says how noisy. */
import { cpus, loadavg, platform, release, totalmem } from "node:os";

/** What the reports print about the machine. */
export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memory: string;
  readonly os: string;
  readonly node: string;
}

/** The CPU model, core count, memory, OS and Node version of this machine. */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? "unknown",
    cores: list.length,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}

/** The 1, 5 and 15 minute load averages, with how they compare to the core count. */
export function loadAverage(): string {
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  const cores = cpus().length;
  const verdict = one >= cores ? "high: more runnable processes than cores" : one >= cores / 2 ? "moderate" : "low";
  return `${one.toFixed(2)} / ${five.toFixed(2)} / ${fifteen.toFixed(2)} (1/5/15 min, ${cores} cores: ${verdict})`;
}

/** The machine as markdown lines. */
export function machineLines(machine: MachineInfo): string[] {
  return [`- CPU: ${machine.cpu}, ${machine.cores} cores, ${machine.memory}`, `- OS: ${machine.os}`, `- Node: ${machine.node}`];
}
