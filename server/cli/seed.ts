import { closeDb, databaseFile, db } from "../db";
import { migrateToLatest } from "../migrate";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoWorld } from "../seed/demo";

await migrateToLatest(db());
console.log(`Seeding the demo world into ${databaseFile()}`);
await seedDemoWorld(db(), { log: (line) => console.log(`  ${line}`) });
console.log(`\nDemo accounts (password ${DEMO_PASSWORD}):`);
for (const a of DEMO_ACCOUNTS) console.log(`  ${a.email.padEnd(22)} ${a.description}`);
await closeDb();
