import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The process environment, parsed once. Every variable has a default so the
 * app runs on a fresh clone with nothing configured; `.env.example` lists them.
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("localhost"),
  DATA_DIR: z.string().default("./data"),
  SESSION_SECRET: z.string().min(16).optional(),
  SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).default(30),
  TRUST_PROXY: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  APP_URL: z.string().url().optional(),
  // "off": this server runs no background jobs; `npm run worker` runs them (README "Background jobs").
  WORKER: z.enum(["on", "off"]).default("on"),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Supplier Risk <no-reply@localhost>"),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  LOGIN_PROTECT_ACCOUNT_AFTER: z.coerce.number().int().min(1).default(25),
  // How long the security log (sign-ins, password and level changes, administrators' actions) is kept (decision 039).
  SECURITY_LOG_DAYS: z.coerce.number().int().min(1).default(365),
  // How long the mail log keeps a mail (its body holds one-time links) before the daily purge (decision 044).
  MAIL_LOG_DAYS: z.coerce.number().int().min(1).default(30),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  // Where LEI lookups come from: the store filled by the GLEIF golden-copy importers (local), or the live GLEIF API.
  LEI_PROVIDER: z.enum(["local", "gleif"]).default("local"),
  GLEIF_API_URL: z.string().url().default("https://api.gleif.org/api/v1"),
  // Brønnøysund's update feed read every 15 minutes for followed companies (decision 023): 'auto' reads it when
  // REGISTRY_PROVIDER=brreg (the operator chose the live registry), 'on' always, 'off' never. A fresh clone calls no one.
  MONITOR_BRREG_UPDATES: z.enum(["auto", "on", "off"]).default("auto"),
  // News feeds on loopback, private or link-local addresses (an intranet feed): refused in production unless 'true' (decision 024).
  NEWS_FEEDS_ALLOW_PRIVATE: z
    .enum(["true", "false", "1", "0", ""])
    .default("")
    .transform((v) => v === "true" || v === "1"),
  // The assistant (decision 026): local answers from the organisation's data without a model; openai streams from any
  // OpenAI-compatible chat-completions endpoint and needs LLM_BASE_URL and LLM_MODEL. LLM_PROVIDER is the one the chat panel uses.
  LLM_PROVIDER: z.enum(["local", "openai"]).default("local"),
  LLM_BASE_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//i, "an http(s) address")
    .optional(),
  LLM_MODEL: z.string().min(1).optional(),
  // Sent only in the Authorization header of the model requests: never logged, never shown, never sent to the browser.
  LLM_API_KEY: z.string().optional(),
  // Longest silence from the model server: before its answer starts, then between two streamed chunks.
  LLM_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(60),
});

/** The news monitor's address rule, read per call (tests switch it). */
export const newsFeedsEnvSchema = schema.pick({ NODE_ENV: true, NEWS_FEEDS_ALLOW_PRIVATE: true });

/** The assistant's part of the environment, read per call (tests switch it; the route names the provider). */
export const llmEnvSchema = schema.pick({ LLM_PROVIDER: true, LLM_BASE_URL: true, LLM_MODEL: true, LLM_API_KEY: true, LLM_TIMEOUT_SECONDS: true });

/** The LEI part of the environment, read on its own so the provider can be chosen per call (tests switch it). */
export const leiEnvSchema = schema.pick({ LEI_PROVIDER: true, GLEIF_API_URL: true });

/** The registry monitor's setting, read on its own so each run sees the current environment (tests switch it). */
export const registryMonitorEnvSchema = schema.pick({ MONITOR_BRREG_UPDATES: true });

export type Env = z.infer<typeof schema> & { DATA_DIR: string };

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  cached = { ...parsed.data, DATA_DIR: path.resolve(parsed.data.DATA_DIR) };
  return cached;
}

/** Folder for the database, uploads and the mail outbox; created on demand. */
export function dataPath(...parts: string[]): string {
  const dir = env().DATA_DIR;
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, ...parts);
}

/**
 * SESSION_SECRET signs the small preference and flash cookies. When it is not
 * set, one is generated on first start and kept in DATA_DIR so that restarts
 * keep users' cookies valid.
 */
export function sessionSecret(): string {
  const configured = env().SESSION_SECRET;
  if (configured) return configured;
  const file = dataPath("session-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not there yet
  }
  const secret = randomBytes(32).toString("hex");
  fs.writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}
