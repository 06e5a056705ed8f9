/**
 * Vitest global setup: one PostgreSQL server for the whole run, shared by every test file that
 * asks for it through test/helpers/postgres.ts. It runs in vitest's main process, before any test
 * file, and its teardown runs after the last one, also when tests failed. With `DATABASE_URL` set,
 * the tests use that server instead and nothing is started (the tests then need a role that may
 * create databases and schemas).
 */
import type { TestProject } from "vitest/node";
import { type EmbeddedServer, startEmbeddedPostgres } from "./embedded-postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The connection string of the run's server (see test/helpers/postgres.ts). */
    postgresUrl: string;
  }
}

let server: EmbeddedServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  const external = process.env.DATABASE_URL;
  if (external !== undefined && external !== "") {
    project.provide("postgresUrl", external);
    return;
  }
  server = await startEmbeddedPostgres();
  project.provide("postgresUrl", server.url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  server = undefined;
}
