import path from "node:path";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The e2e server's data folder; scripts/e2e-server.mjs empties it at every start. */
export const E2E_DATA_DIR = path.resolve(`.cache/e2e-data-${E2E_PORT}`);
