import { closeDb, databaseFile, db } from "../db";
import { migrateToLatest } from "../migrate";

const applied = await migrateToLatest(db());
console.log(applied.length ? `Applied: ${applied.join(", ")}` : `Up to date: ${databaseFile()}`);
await closeDb();
