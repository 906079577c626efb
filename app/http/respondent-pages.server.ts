import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import { languageCookie } from "@server/cookies";
import { z } from "zod";
import { openFile, uploadMaxBytes } from "@server/storage";
import { fileDownloadResponse } from "~/http/download.server";
import { requireUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { errorResponse } from "~/http/responses.server";
import { formatByteLimit, isMultipart, readUpload, type UploadRefusal } from "~/http/upload.server";
import i18nServer from "~/i18n.server";
import { isLanguage, uiLanguage, type Language } from "~/i18n";
import { pageTitle } from "~/models/shared/page-title.server";
import { RESPONDENT_HEADERS } from "~/http/respondent-headers";
import {
  actingParty,
  addEvidence,
  storeRespondentFile,
  attachTaskFile,
  discardUpload,
  downloadableTaskFile,
  itemHeader,
  linkItem,
  markOpened,
  removeEvidence,
  removeTaskFile,
  respondentItem,
  respondentList,
  saveSurveyAnswers,
  saveTaskAnswer,
  submitSurvey,
  surveyState,
  taskAnswer,
  type Access,
  type FileRef,
  type RespondentKind,
} from "~/models/tasks/respondent.server";
import {
  allQuestions,
  answerProblems,
  isIsoDate,
  isVisible,
  localized,
  normalizeAnswers,
  surveyScore,
  type AnswerProblem,
  type Answers,
} from "~/models/tasks/survey-definition";
import type { LinkRefusal } from "~/models/tasks/task-workflow.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { isSingleLine } from "~/models/shared/single-line";

/**
 * The loaders and actions of the respondent pages (decision 033), shared by the signed-in routes (`/tasks/{id}`,
 * `/tasks/surveys/{id}`) and the link routes (`…/public?token=`): they differ only in how the item is found. Every answer
 * carries `Referrer-Policy: same-origin` and `Cache-Control: no-store` (the route modules' `headers`), and a refused link
 * is a page of its own with 404 (unknown) or 410 (expired, revoked, cancelled).
 */

export type Mode = "user" | "link";

/** Above this, a comment is refused (multipart text fields are capped at 4096 characters by the upload reader). */
export const COMMENT_MAX = 4000;

type Found = { access: Access; base: string; organization: string | null } | { refused: LinkRefusal };

/** The item of the URL, or why the link is refused. A signed-in respondent gets 404 for anything not sent to their organisation. */
async function resolve(request: Request, params: Record<string, string | undefined>, kind: RespondentKind, mode: Mode): Promise<Found> {
  const raw = kind === "task" ? params.complianceTaskId : params.surveyResponseId;
  const answerId = parseId(raw);
  const path = kind === "task" ? `/tasks/${raw}` : `/tasks/surveys/${raw}`;
  if (mode === "user") {
    const user = await requireUser(request, "respondentWork");
    if (answerId === null) throw errorResponse(404, "Not Found");
    const task = await respondentItem({ supplierOrganizationId: user.organizationId, kind, answerId });
    if (!task) throw errorResponse(404, "Not Found");
    if (task.status === "cancelled") return { refused: "cancelled" };
    return { access: { mode: "user", task, userId: user.id, email: user.email }, base: path, organization: user.organizationName };
  }
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (answerId === null) return { refused: "unknown" };
  const found = await linkItem(token, kind, answerId);
  if ("refused" in found) return found;
  return {
    access: { mode: "link", task: found.task, token, email: found.email },
    base: `${path}/public?token=${encodeURIComponent(token)}`,
    organization: null,
  };
}

async function refusedPage(request: Request, refusal: LinkRefusal) {
  const t = await i18nServer.getFixedT(request);
  return json(
    { page: "refused" as const, refusal, title: `${t("taskStates:link.title")} · ${t("common:appName")}` },
    { status: refusal === "unknown" ? 404 : 410, headers: RESPONDENT_HEADERS },
  );
}

/**
 * `?lang=no|en` on any respondent page (a link in a mail): remembered in the language cookie, and the same page again
 * without the parameter. Null without it. A GET never writes the account: any site can make a browser follow a link, so
 * a signed-in user's language changes only by the language switch's POST (/preferences/language), and their account's
 * language is what they see.
 */
export async function switchLanguage(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  const lang = url.searchParams.get("lang");
  if (lang === null) return null;
  url.searchParams.delete("lang");
  const to = url.pathname + (url.search || "");
  if (!isLanguage(lang)) return redirect(to, { headers: RESPONDENT_HEADERS });
  return redirect(to, { headers: { ...RESPONDENT_HEADERS, "Set-Cookie": await languageCookie.serialize(lang) } });
}

/** `base` plus more query parameters (it may already carry the token). */
export function withQuery(base: string, query: Record<string, string>): string {
  const q = new URLSearchParams(query).toString();
  if (!q) return base;
  return base + (base.includes("?") ? "&" : "?") + q;
}

function answerer(access: Access): { signedInAs: string | null } {
  return { signedInAs: access.mode === "user" ? access.email : null };
}

/* ---------------- the lists ---------------- */

/**
 * A respondent list (My tasks, My surveys; My Compliance adds the customer's overview): what the user's organisation must
 * answer, of one kind or all, with the organisation's name for the respondent bar and the page's title.
 */
export async function listLoader(request: Request, input: { kind?: RespondentKind; titleKey: string }) {
  const user = await requireUser(request, "respondentWork");
  const switched = await switchLanguage(request);
  if (switched) throw switched;
  const items = await respondentList({ supplierOrganizationId: user.organizationId, kind: input.kind });
  return { user, items, organization: user.organizationName, title: await pageTitle(request, input.titleKey) };
}

/* ---------------- a task ---------------- */

export async function taskLoader(request: Request, params: Record<string, string | undefined>, mode: Mode) {
  const switched = await switchLanguage(request);
  if (switched) throw switched;
  const found = await resolve(request, params, "task", mode);
  if ("refused" in found) return refusedPage(request, found.refused);
  await markOpened(found.access);
  const task = found.access.mode === "user" ? found.access.task : found.access.task;
  const language = (await i18nServer.getLocale(request)) as Language;
  const t = await i18nServer.getFixedT(request);
  const header = await itemHeader(task.status === "sent" ? { ...task, status: "opened" } : task);
  return json(
    {
      page: "task" as const,
      mode,
      base: found.base,
      header,
      answer: await taskAnswer(task, language),
      limit: formatByteLimit(uploadMaxBytes()),
      linkEmail: found.access.mode === "link" ? found.access.email : null,
      ...answerer(found.access),
      organization: found.organization,
      title: `${task.title} · ${t("common:appName")}`,
      values: null as null | Record<string, string>,
      errors: null as null | Record<string, string[]>,
      formError: null as string | null,
    },
    { headers: RESPONDENT_HEADERS },
  );
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

const taskSchema = (t: Translate, mode: Mode) =>
  z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal("save"),
      comment: z
        .string()
        .trim()
        .max(COMMENT_MAX, t("respond:errors.commentTooLong", { max: COMMENT_MAX }))
        .optional(),
    }),
    z.object({
      intent: z.literal("submit"),
      comment: z
        .string()
        .trim()
        .max(COMMENT_MAX, t("respond:errors.commentTooLong", { max: COMMENT_MAX }))
        .optional(),
      ...nameFields(t, mode),
    }),
    z.object({
      intent: z.literal("remove"),
      fileId: z.string().regex(/^[1-9]\d{0,15}$/, t("respond:errors.fileNotFound")),
    }),
  ]);

/** On a link the respondent says who answers (the customer sees it); a signed-in user is known. */
function nameFields(t: Translate, mode: Mode) {
  return mode === "link"
    ? {
        name: z
          .string({ error: t("respond:errors.nameRequired") })
          .trim()
          .min(1, t("respond:errors.nameRequired"))
          .max(200, t("respond:errors.nameTooLong"))
          .refine(isSingleLine, t("common:errors.singleLine")),
        email: z.string().trim().max(254).email(t("respond:errors.emailInvalid")).optional(),
      }
    : {};
}

/** The name (and e-mail) a link's respondent gave when submitting; none for a signed-in user. */
function givenName(access: Access, value: object): { name: string; email: string | null } | undefined {
  if (access.mode !== "link") return undefined;
  const { name, email } = value as { name?: string; email?: string };
  return name ? { name, email: email ?? null } : undefined;
}

function uploadMessage(t: Translate, refused: UploadRefusal | null, limitBytes: number): string | null {
  if (refused === "too_large") return t("respond:errors.tooLarge", { limit: formatByteLimit(limitBytes) });
  if (refused === "empty") return t("respond:errors.emptyFile");
  return null;
}

/** What a refused POST answers: the page again with the message, and the status (409: no longer open). */
async function conflict(request: Request, params: Record<string, string | undefined>, kind: RespondentKind, mode: Mode, message: string) {
  const page = kind === "task" ? await taskLoader(request, params, mode) : await surveyLoader(request, params, mode);
  const data = (await page.json()) as Record<string, unknown>;
  return json({ ...data, formError: message }, { status: 409, headers: RESPONDENT_HEADERS });
}

function isRefusedWrite(error: unknown): boolean {
  return isRefusalOf(error, ["not-editable", "transition-refused"]);
}

export async function taskAction(request: Request, params: Record<string, string | undefined>, mode: Mode) {
  const found = await resolve(request, params, "task", mode);
  if ("refused" in found) return refusedPage(request, found.refused);
  const { access, base } = found;
  const t = await i18nServer.getFixedT(request);
  if (access.task.status !== "opened" && access.task.status !== "sent" && access.task.status !== "draft" && access.task.status !== "returned") {
    return conflict(request, params, "task", mode, t("respond:errors.notOpen"));
  }
  try {
    let fields: FormData;
    let stored: FileRef | null = null;
    let uploadProblem: string | null = null;
    let tooLarge = false;
    if (isMultipart(request)) {
      const upload = await readUpload(request, {
        maxBytes: uploadMaxBytes(),
        store: (file) => storeRespondentFile(access, file),
        discard: (file) => discardUpload(file.id),
      });
      fields = upload.fields;
      stored = upload.file;
      uploadProblem = uploadMessage(t, upload.refused, upload.limitBytes);
      tooLarge = upload.refused === "too_large";
    } else fields = await readForm(request);

    const submission = parseWithZod(fields, { schema: taskSchema(t, mode) });
    const values = Object.fromEntries([...fields.entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
    if (submission.status !== "success" || uploadProblem) {
      const errors = submission.status === "success" ? {} : (submission.reply().error ?? {});
      if ("intent" in errors || "fileId" in errors) {
        if (stored) await discardUpload(stored.id);
        throw errorResponse(400, "The form is not one of this page's forms.");
      }
      // A good file is kept with the draft even when another field is refused; the page says what to fix.
      if (stored) await attachTaskFile(access, stored.id);
      const page = await taskLoader(request, params, mode);
      const data = (await page.json()) as Record<string, unknown>;
      return json(
        { ...data, values, errors, formError: uploadProblem ?? t("respond:errors.fixBelow") },
        { status: tooLarge ? 413 : 400, headers: RESPONDENT_HEADERS },
      );
    }
    const value = submission.value;
    switch (value.intent) {
      case "save":
      case "submit": {
        if (stored) await attachTaskFile(access, stored.id);
        const current = stored ? ((await resolve(request, params, "task", mode)) as { access: Access }).access : access;
        const given = value.intent === "submit" ? givenName(access, value) : undefined;
        await saveTaskAnswer(current, { comment: value.comment ?? "", submit: value.intent === "submit", party: actingParty(current, given) });
        return redirectWithNotice(request, base, value.intent === "submit" ? "respond:notice.submitted" : "respond:notice.saved", {
          headers: new Headers(RESPONDENT_HEADERS),
        });
      }
      case "remove": {
        if (stored) await discardUpload(stored.id);
        const removed = await removeTaskFile(access, Number(value.fileId));
        if (!removed) throw errorResponse(404, "Not Found");
        return redirectWithNotice(request, base, "respond:notice.fileRemoved", { headers: new Headers(RESPONDENT_HEADERS) });
      }
    }
  } catch (error) {
    if (isRefusedWrite(error)) return conflict(request, params, "task", mode, t("respond:errors.notOpen"));
    throw error;
  }
}

/* ---------------- a survey ---------------- */

/** The section a URL asks for: 1…n, or "summary"; anything else is the first section. */
export function sectionParam(raw: string | null, count: number): number | "summary" {
  if (raw === "summary") return "summary";
  const n = raw !== null && /^\d{1,3}$/.test(raw) ? Number(raw) : 1;
  return n >= 1 && n <= count ? n : 1;
}

export interface SurveyProblemItem {
  questionId: string;
  section: number;
  text: { en: string; no: string };
  problem: AnswerProblem;
}

export async function surveyLoader(request: Request, params: Record<string, string | undefined>, mode: Mode) {
  const switched = await switchLanguage(request);
  if (switched) throw switched;
  const found = await resolve(request, params, "survey", mode);
  if ("refused" in found) return refusedPage(request, found.refused);
  await markOpened(found.access);
  const task = found.access.task;
  const state = await surveyState(task);
  if (!state) throw errorResponse(404, "Not Found");
  const t = await i18nServer.getFixedT(request);
  const opened = await itemHeader(task.status === "sent" ? { ...task, status: "opened" } : task);
  // The survey's own title in the respondent's language, unless the customer named the send otherwise.
  const language = uiLanguage(await i18nServer.getLocale(request));
  const surveyTitle = task.title === state.definition.title.en ? localized(state.definition.title, language) || task.title : task.title;
  const header = { ...opened, title: surveyTitle };
  const section = sectionParam(new URL(request.url).searchParams.get("section"), state.definition.sections.length);
  return json(
    {
      page: "survey" as const,
      mode,
      base: found.base,
      header,
      definition: state.definition,
      answers: state.answers,
      files: state.files,
      fileCounts: state.fileCounts,
      score: state.score,
      section,
      limit: formatByteLimit(uploadMaxBytes()),
      linkEmail: found.access.mode === "link" ? found.access.email : null,
      ...answerer(found.access),
      organization: found.organization,
      title: `${surveyTitle} · ${t("common:appName")}`,
      values: null as null | Answers,
      problems: null as null | Record<string, AnswerProblem>,
      summaryProblems: null as null | SurveyProblemItem[],
      nameValues: null as null | Record<string, string>,
      errors: null as null | Record<string, string[]>,
      formError: null as string | null,
    },
    { headers: RESPONDENT_HEADERS },
  );
}

const surveySchema = (t: Translate, mode: Mode) =>
  z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal("save"),
      section: z.string().regex(/^\d{1,3}$/),
      go: z
        .string()
        .regex(/^(\d{1,3}|summary|stay)$/)
        .optional(),
    }),
    z.object({
      intent: z.literal("upload"),
      section: z.string().regex(/^\d{1,3}$/),
      question: z.string().max(40),
      expiresOn: z
        .string()
        .trim()
        .refine((v) => isIsoDate(v), t("taskStates:problem.notADate"))
        .optional(),
    }),
    z.object({
      intent: z.literal("remove"),
      section: z.string().regex(/^\d{1,3}$/),
      fileId: z.string().regex(/^[1-9]\d{0,15}$/),
    }),
    z.object({ intent: z.literal("submit"), ...nameFields(t, mode) }),
  ]);

/** The answers a form posted, by question id (fields `a.<questionId>`; a multiple choice repeats its field). */
function postedAnswers(fields: FormData): Record<string, string[]> {
  // Without a prototype: a field named `a.__proto__` or `a.constructor` is a key like any other, not Object's own.
  const out: Record<string, string[]> = Object.create(null);
  for (const [key, value] of fields.entries()) {
    if (!key.startsWith("a.") || typeof value !== "string") continue;
    (out[key.slice(2)] ??= []).push(value);
  }
  return out;
}

export async function surveyAction(request: Request, params: Record<string, string | undefined>, mode: Mode) {
  const found = await resolve(request, params, "survey", mode);
  if ("refused" in found) return refusedPage(request, found.refused);
  const { access, base } = found;
  const t = await i18nServer.getFixedT(request);
  if (!["sent", "opened", "draft", "returned"].includes(access.task.status)) return conflict(request, params, "survey", mode, t("respond:errors.notOpen"));
  const state = await surveyState(access.task);
  if (!state) throw errorResponse(404, "Not Found");
  const { definition } = state;
  const sections = definition.sections;

  const page = async (status: number, extra: Record<string, unknown>) => {
    const loaded = await surveyLoader(request, params, mode);
    const data = (await loaded.json()) as Record<string, unknown>;
    return json({ ...data, ...extra }, { status, headers: RESPONDENT_HEADERS });
  };

  try {
    let fields: FormData;
    let stored: FileRef | null = null;
    let uploadRefused: UploadRefusal | null = null;
    let limitBytes = uploadMaxBytes();
    if (isMultipart(request)) {
      const upload = await readUpload(request, {
        maxBytes: uploadMaxBytes(),
        accept: (soFar) => soFar.get("intent") === "upload",
        store: (file) => storeRespondentFile(access, file),
        discard: (file) => discardUpload(file.id),
      });
      fields = upload.fields;
      stored = upload.file;
      uploadRefused = upload.refused;
      limitBytes = upload.limitBytes;
    } else fields = await readForm(request);

    const submission = parseWithZod(fields, { schema: surveySchema(t, mode) });
    if (submission.status !== "success") {
      if (stored) await discardUpload(stored.id);
      const errors = submission.reply().error ?? {};
      if (Object.keys(errors).some((k) => k === "intent" || k === "section" || k === "go" || k === "question" || k === "fileId")) {
        throw errorResponse(400, "The form is not one of this page's forms.");
      }
      const nameValues = Object.fromEntries(["name", "email", "expiresOn"].map((k) => [k, String(fields.get(k) ?? "")]));
      const intent = fields.get("intent");
      if (intent === "submit") return page(400, { section: "summary", errors, nameValues, formError: t("respond:errors.fixBelow") });
      // An upload's bad expiry date shows under that question's file field.
      const upload = intent === "upload" ? { [`file.${String(fields.get("question"))}`]: errors.expiresOn ?? null } : {};
      return page(400, {
        section: sectionParam(String(fields.get("section")), sections.length),
        errors: { ...errors, ...upload },
        nameValues,
        formError: t("respond:errors.fixBelow"),
      });
    }
    const value = submission.value;
    const target = (section: number | "summary") => withQuery(base, { section: String(section) });
    switch (value.intent) {
      case "save": {
        const n = sectionParam(value.section, sections.length);
        const current = sections[(n === "summary" ? 1 : n) - 1]!;
        const questions = current.questions.filter((q) => q.type !== "file");
        const posted = normalizeAnswers(questions, postedAnswers(fields));
        const merged = { ...state.answers, ...posted };
        const problems = answerProblems(definition, questions, merged, { strict: false, fileCounts: state.fileCounts });
        if (Object.keys(problems).length > 0) {
          // Nothing is saved: the page comes back with every answer as typed and what to fix.
          return page(400, { section: n, values: merged, problems, formError: t("respond:errors.fixBelow") });
        }
        await saveSurveyAnswers(access, merged);
        const go = value.go ?? "stay";
        const next = go === "summary" ? "summary" : go === "stay" ? n : sectionParam(go, sections.length);
        return redirectWithNotice(request, target(next), "respond:notice.saved", { headers: new Headers(RESPONDENT_HEADERS) });
      }
      case "upload": {
        const n = sectionParam(value.section, sections.length);
        const question = allQuestions(definition).find((q) => q.id === value.question && q.type === "file");
        if (!question || !isVisible(definition, question, state.answers)) {
          if (stored) await discardUpload(stored.id);
          throw errorResponse(400, "question: not a file question of this survey");
        }
        const problem = uploadMessage(t, uploadRefused, limitBytes) ?? (stored ? null : t("respond:errors.chooseFile"));
        if (problem || !stored) {
          return page(uploadRefused === "too_large" ? 413 : 400, {
            section: n,
            formError: problem,
            errors: { [`file.${question.id}`]: [problem] },
            nameValues: { expiresOn: value.expiresOn ?? "" },
          });
        }
        await addEvidence(access, { questionId: question.id, fileId: stored.id, expiresOn: value.expiresOn || null, answers: state.answers });
        return redirectWithNotice(request, target(n), "respond:notice.fileAdded", { headers: new Headers(RESPONDENT_HEADERS) });
      }
      case "remove": {
        if (stored) await discardUpload(stored.id);
        const n = sectionParam(value.section, sections.length);
        if (!(await removeEvidence(access, Number(value.fileId)))) throw errorResponse(404, "Not Found");
        return redirectWithNotice(request, target(n), "respond:notice.fileRemoved", { headers: new Headers(RESPONDENT_HEADERS) });
      }
      case "submit": {
        if (stored) await discardUpload(stored.id);
        const problems = answerProblems(definition, allQuestions(definition), state.answers, { strict: true, fileCounts: state.fileCounts });
        const list: SurveyProblemItem[] = [];
        sections.forEach((s, i) => {
          for (const q of s.questions) if (problems[q.id]) list.push({ questionId: q.id, section: i + 1, text: q.text, problem: problems[q.id]! });
        });
        if (list.length > 0)
          return page(400, {
            section: "summary",
            summaryProblems: list,
            nameValues: Object.fromEntries(fields.entries()),
            formError: t("respond:errors.notComplete"),
          });
        const language = (await i18nServer.getLocale(request)) as Language;
        const given = givenName(access, value);
        await submitSurvey(access, { score: surveyScore(definition, state.answers, state.fileCounts), language, party: actingParty(access, given) });
        return redirectWithNotice(request, base, "respond:notice.submitted", { headers: new Headers(RESPONDENT_HEADERS) });
      }
    }
  } catch (error) {
    if (isRefusedWrite(error)) return conflict(request, params, "survey", mode, t("respond:errors.notOpen"));
    throw error;
  }
}

/* ---------------- downloads ---------------- */

/** A file of the item (the task template's, or one of the answer's): the same access as the page; anything else 404. */
export async function fileLoader(request: Request, params: Record<string, string | undefined>, kind: RespondentKind, mode: Mode) {
  const found = await resolve(request, params, kind, mode);
  if ("refused" in found) {
    throw json(
      { error: found.refused === "unknown" ? "Not Found" : "Gone", message: "This link cannot be used." },
      { status: found.refused === "unknown" ? 404 : 410, headers: RESPONDENT_HEADERS },
    );
  }
  const fileId = parseId(params.fileId);
  if (fileId === null) throw errorResponse(404, "Not Found");
  const file = await downloadableTaskFile(found.access.task, fileId);
  const stored = file ? await openFile(file.storageKey) : null;
  if (!file || !stored) throw errorResponse(404, "Not Found");
  const response = fileDownloadResponse(stored.stream, { fileName: file.fileName, contentType: file.mimeType, size: stored.size });
  response.headers.set("Referrer-Policy", "same-origin");
  return response;
}
