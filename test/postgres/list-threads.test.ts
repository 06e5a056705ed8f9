/** PostgresCheckpointer lists its threads as the other stores do, in a schema of its own on the run's server. */
import { PostgresCheckpointer } from "../../src/postgres/index.js";
import { freshSchemaName, postgresUrl } from "../helpers/postgres.js";
import { describeListThreads } from "../persistence/list-threads-contract.js";

describeListThreads(
  "PostgresCheckpointer",
  () => PostgresCheckpointer.connect(postgresUrl(), { schema: freshSchemaName("listthreads") }),
  (checkpointer) => checkpointer.close(),
);
