import type { Bilingual, ChoiceOption, QuestionType, SurveyDefinition, SurveyQuestion, SurveySection } from "~/models/tasks/survey-definition";

/**
 * The survey builder's changes (decision 032), pure: each takes a definition and gives a new one (the input is never
 * changed). The caller checks the result with surveyDefinitionSchema before it is stored, so a change that would break
 * the definition (deleting the question a condition refers to, moving a condition above its question) is refused there
 * with the schema's reason. New ids are "s<n>" / "q<n>" / "o<n>", one above the highest of the kind in use: an id once
 * deleted may come back, which is harmless because answers are read against the version they answered.
 */

export type Direction = "up" | "down";

/** The texts a new section, question or option gets (from the builder's language file). */
export interface NewTexts {
  section: Bilingual;
  question: Bilingual;
  option: (n: number) => Bilingual;
}

function clone(definition: SurveyDefinition): SurveyDefinition {
  return structuredClone(definition);
}

function nextId(prefix: string, used: Iterable<string>): string {
  let max = 0;
  const pattern = new RegExp(`^${prefix}(\\d+)$`);
  for (const id of used) {
    const m = pattern.exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `${prefix}${max + 1}`;
}

function questionIds(definition: SurveyDefinition): string[] {
  return definition.sections.flatMap((s) => s.questions.map((q) => q.id));
}

function move<T>(list: T[], index: number, direction: Direction): boolean {
  const to = direction === "up" ? index - 1 : index + 1;
  if (index < 0 || to < 0 || to >= list.length) return false;
  [list[index], list[to]] = [list[to], list[index]];
  return true;
}

/** A new question of the type, with the type's required settings (two options for a choice). */
export function newQuestion(type: QuestionType, id: string, texts: NewTexts): SurveyQuestion {
  const question: SurveyQuestion = { id, type, text: { ...texts.question }, required: false };
  if (type === "single_choice" || type === "multiple_choice")
    question.options = [1, 2].map((n) => ({ value: `o${n}`, label: texts.option(n) }) satisfies ChoiceOption);
  if (type === "file") question.askExpiry = false;
  return question;
}

export function addSection(
  definition: SurveyDefinition,
  texts: NewTexts,
  questionType: QuestionType = "short_text",
): { definition: SurveyDefinition; id: string } {
  const next = clone(definition);
  const id = nextId(
    "s",
    next.sections.map((s) => s.id),
  );
  // A section holds at least one question (the schema's rule): it starts with one to edit.
  next.sections.push({ id, title: { ...texts.section }, questions: [newQuestion(questionType, nextId("q", questionIds(next)), texts)] });
  return { definition: next, id };
}

export function findSection(definition: SurveyDefinition, sectionId: string): SurveySection | undefined {
  return definition.sections.find((s) => s.id === sectionId);
}

export function updateSection(definition: SurveyDefinition, sectionId: string, change: { title: Bilingual; description?: Bilingual }): SurveyDefinition | null {
  const next = clone(definition);
  const section = findSection(next, sectionId);
  if (!section) return null;
  section.title = change.title;
  if (change.description && (change.description.en || change.description.no)) section.description = change.description;
  else delete section.description;
  return next;
}

export function moveSection(definition: SurveyDefinition, sectionId: string, direction: Direction): SurveyDefinition | null {
  const next = clone(definition);
  const index = next.sections.findIndex((s) => s.id === sectionId);
  return move(next.sections, index, direction) ? next : null;
}

export function deleteSection(definition: SurveyDefinition, sectionId: string): SurveyDefinition | null {
  const next = clone(definition);
  const index = next.sections.findIndex((s) => s.id === sectionId);
  if (index < 0) return null;
  next.sections.splice(index, 1);
  return next;
}

export function addQuestion(
  definition: SurveyDefinition,
  sectionId: string,
  type: QuestionType,
  texts: NewTexts,
): { definition: SurveyDefinition; id: string } | null {
  const next = clone(definition);
  const section = findSection(next, sectionId);
  if (!section) return null;
  const id = nextId("q", questionIds(next));
  section.questions.push(newQuestion(type, id, texts));
  return { definition: next, id };
}

function locate(definition: SurveyDefinition, questionId: string): { section: SurveySection; index: number; sectionIndex: number } | null {
  for (const [sectionIndex, section] of definition.sections.entries()) {
    const index = section.questions.findIndex((q) => q.id === questionId);
    if (index >= 0) return { section, index, sectionIndex };
  }
  return null;
}

/** Replaces the question (same id and type; everything else from `question`). */
export function replaceQuestion(definition: SurveyDefinition, question: SurveyQuestion): SurveyDefinition | null {
  const next = clone(definition);
  const at = locate(next, question.id);
  if (!at) return null;
  at.section.questions[at.index] = { ...question, type: at.section.questions[at.index].type };
  return next;
}

/** Moves a question within its section; at the section's edge it goes to the end/start of the neighbouring section. */
export function moveQuestion(definition: SurveyDefinition, questionId: string, direction: Direction): SurveyDefinition | null {
  const next = clone(definition);
  const at = locate(next, questionId);
  if (!at) return null;
  if (move(at.section.questions, at.index, direction)) return next;
  const neighbour = next.sections[direction === "up" ? at.sectionIndex - 1 : at.sectionIndex + 1];
  if (!neighbour) return null;
  const [question] = at.section.questions.splice(at.index, 1);
  if (direction === "up") neighbour.questions.push(question);
  else neighbour.questions.unshift(question);
  return next;
}

export function deleteQuestion(definition: SurveyDefinition, questionId: string): SurveyDefinition | null {
  const next = clone(definition);
  const at = locate(next, questionId);
  if (!at) return null;
  at.section.questions.splice(at.index, 1);
  return next;
}

/** The questions a condition of `questionId` may refer to: earlier yes/no and choice questions, with their answers. */
export function conditionChoices(definition: SurveyDefinition, questionId: string): { question: SurveyQuestion; values: string[] }[] {
  const out: { question: SurveyQuestion; values: string[] }[] = [];
  for (const q of definition.sections.flatMap((s) => s.questions)) {
    if (q.id === questionId) break;
    if (q.type === "yes_no") out.push({ question: q, values: ["yes", "no"] });
    else if (q.type === "single_choice" || q.type === "multiple_choice") out.push({ question: q, values: (q.options ?? []).map((o) => o.value) });
  }
  return out;
}

/** The option rows posted by the builder (existing values kept, new rows get a fresh value); rows without text are dropped. */
export function optionsFromRows(rows: { value?: string; en: string; no: string; points?: number }[]): ChoiceOption[] {
  const used = rows.map((r) => r.value ?? "").filter(Boolean);
  const out: ChoiceOption[] = [];
  for (const row of rows) {
    if (!row.en.trim() && !row.no.trim()) continue;
    let value = row.value;
    if (!value) {
      value = nextId("o", used);
      used.push(value);
    }
    out.push({ value, label: { en: row.en.trim(), no: row.no.trim() }, ...(row.points !== undefined ? { points: row.points } : {}) });
  }
  return out;
}

/** How many questions a definition has (the list's column). */
export function questionCount(definition: SurveyDefinition): number {
  return definition.sections.reduce((n, s) => n + s.questions.length, 0);
}
