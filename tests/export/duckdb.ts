// DuckDB over exported files, for tests: one in-memory database, queries answered as plain rows.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

let connection: Promise<DuckDBConnection> | null = null;

export async function query(sql: string): Promise<Record<string, unknown>[]> {
	connection ??= DuckDBInstance.create(':memory:').then((db) => db.connect());
	const reader = await (await connection).runAndReadAll(sql);
	return reader.getRowObjectsJS() as Record<string, unknown>[];
}
