import { PASSWORD_RESET_MAIL_JOB, passwordResetMailJob } from "~/models/accounts/password-reset-request.server";
import { ANNOUNCEMENT_MAIL_JOB, announcementMailJob } from "~/models/notifications/announcements.server";
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./components/shell/nonce";
import { isLanguage, fallbackLanguage } from "./i18n";
import i18nServer, { resources } from "./i18n.server";
import { Translations, TranslationsProvider } from "./translations";
import type { Store } from "./translate";
import { supplierAnalysis } from "./models/files/supplier-analysis-job.server";
import { brregUpdatesSchedule, monitorBrregUpdates } from "./models/notifications/monitor-brreg-updates-job.server";
import { monitorNews, monitorNewsSchedule } from "./models/notifications/monitor-news-job.server";
import { notificationDigest, notificationImmediate, notificationMailSchedules } from "./models/notifications/notification-mail-jobs.server";
import { writeIntelligenceJob } from "~/models/assistant/intelligence-job.server";
import { WRITE_INTELLIGENCE_JOB } from "~/models/assistant/intelligence-texts.server";
import { SEND_CAMPAIGN_JOB, sendCampaignJob } from "~/models/tasks/campaigns.server";
import { TASK_RECURRING_JOB, TASK_REMINDERS_JOB, taskRecurring, taskReminders, taskSchedules } from "./models/tasks/task-reminder-jobs.server";
import { RISK_RECOMPUTE_JOB, riskRecomputeJob, riskRecomputeSchedule } from "~/models/suppliers/overall-risk.server";
import { RISK_SNAPSHOT_JOB, riskSnapshotJob, riskSnapshotSchedule } from "~/models/overview/risk-snapshots.server";
import { SECURITY_LOG_PURGE_JOB, securityLogPurgeJob, securityLogPurgeSchedule } from "~/models/accounts/security-events.server";
import { MAIL_LOG_PURGE_JOB, mailLogPurgeJob, mailLogPurgeSchedule } from "~/models/admin/mail-log.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The Content-Security-Policy nonce of this answer (server/app.ts). */
    cspNonce?: string;
  }
}

/** The background jobs this build runs (server/main.ts and server/cli/worker.ts start the worker with them). */
export const jobHandlers = {
  "supplier-analysis": supplierAnalysis,
  "monitor.brreg-updates": monitorBrregUpdates,
  "monitor.news": monitorNews,
  "notifications.digest": notificationDigest,
  "notifications.immediate": notificationImmediate,
  [WRITE_INTELLIGENCE_JOB]: writeIntelligenceJob,
  [SEND_CAMPAIGN_JOB]: sendCampaignJob,
  [TASK_REMINDERS_JOB]: taskReminders,
  [TASK_RECURRING_JOB]: taskRecurring,
  [RISK_RECOMPUTE_JOB]: riskRecomputeJob,
  [RISK_SNAPSHOT_JOB]: riskSnapshotJob,
  [SECURITY_LOG_PURGE_JOB]: securityLogPurgeJob,
  [MAIL_LOG_PURGE_JOB]: mailLogPurgeJob,
  [ANNOUNCEMENT_MAIL_JOB]: announcementMailJob,
  [PASSWORD_RESET_MAIL_JOB]: passwordResetMailJob,
};

/** Recurring jobs (server/jobs/schedule.ts). */
export const jobSchedules = [
  brregUpdatesSchedule,
  monitorNewsSchedule,
  ...notificationMailSchedules,
  ...taskSchedules,
  riskRecomputeSchedule,
  riskSnapshotSchedule,
  securityLogPurgeSchedule,
  mailLogPurgeSchedule,
];

const ABORT_DELAY = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The express server makes a nonce per request and names it in the Content-Security-Policy header.
  const nonce = loadContext.cspNonce || undefined;
  const lng = await i18nServer.getLocale(request);
  // Every namespace of both languages: the page renders in the user's language with English as the fallback.
  const translations = new Translations({ language: isLanguage(lng) ? lng : fallbackLanguage, store: resources as Store });

  // Everyone gets the whole document at once: the loaders have finished before the render, so waiting costs nothing,
  // and a part that suspends (a dialog's code loaded on demand, decision 015) is in the markup itself, not swapped in
  // by an inline script later — pages must work without JavaScript.
  const readyEvent = "onAllReady";

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ""}>
        <TranslationsProvider value={translations}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </TranslationsProvider>
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
