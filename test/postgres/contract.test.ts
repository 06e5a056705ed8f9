/** PostgresCheckpointer passes the Checkpointer contract, each test in a schema of its own on the run's server. */
import { PostgresCheckpointer } from "../../src/postgres/index.js";
import { freshSchemaName, postgresUrl } from "../helpers/postgres.js";
import { describeCheckpointerContract } from "../persistence/contract.js";

describeCheckpointerContract(
  "PostgresCheckpointer",
  () => PostgresCheckpointer.connect(postgresUrl(), { schema: freshSchemaName("contract") }),
  (checkpointer) => checkpointer.close(),
);
