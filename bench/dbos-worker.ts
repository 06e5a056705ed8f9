/**
 * A worker process of the DBOS throughput bench: registers the I/O-bound report graph, launches DBOS
 * with its own executor id and works the queue, `concurrency` runs at a time.
 * Usage: node bench/dist/bench/dbos-worker.js <url> <executorId> <queue> <concurrency>
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { registerOnDBOS } from "../src/dbos/index.js";
import { ioBoundReportGraph } from "./_dbos-graph.js";

const [url, executorID, queue, concurrency] = process.argv.slice(2) as [string, string, string, string];
registerOnDBOS(ioBoundReportGraph(), { name: "report-io" });
DBOS.setConfig({ name: "tsg-bench", systemDatabaseUrl: url, executorID, applicationVersion: "bench", logLevel: "error" });
await DBOS.launch();
await DBOS.registerQueue(queue, { workerConcurrency: Number(concurrency), minPollingIntervalMs: 20 });
process.stdout.write("ready\n");
