// The job runner (docs/decisions/016): what the app and the server entry points use.
export { enqueueJob, jobForUser, listJobsForUser, backoffMs, JOB_FAILED_KEY } from "./queue";
export { startWorker, type Worker, type WorkerOptions } from "./worker";
export { SCHEDULE_TIME_ZONE } from "./schedule";
export { JobInterrupted, JobLeaseLost, PermanentJobError, type JobContext, type JobHandler, type JobStatus, type JobView, type Schedule } from "./types";
