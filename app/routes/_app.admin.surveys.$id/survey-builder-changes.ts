import { refuse } from "~/models/shared/refusal";
import {
  addQuestion,
  addSection,
  deleteQuestion,
  deleteSection,
  moveQuestion,
  moveSection,
  optionsFromRows,
  replaceQuestion,
  updateSection,
  type NewTexts,
} from "~/models/tasks/survey-builder";
import type { DefinitionProblem } from "~/models/tasks/survey-builder.server";
import { findQuestion, type Bilingual, type SurveyDefinition, type SurveyQuestion } from "~/models/tasks/survey-definition";
import { INTENT, type BuilderChange, type ChangeOf } from "./survey-builder-schema";

/**
 * The survey builder's changes, pure: a posted change applied to the stored definition gives the next definition and
 * the part of the page to come back to (#s-… / #q-…). A change the definition does not allow throws a Refusal:
 * "part-not-found" (the section or question is gone), "cannot-move" (already first or last).
 */
export interface Changed {
  next: SurveyDefinition;
  /** The page's anchor of the changed part. */
  anchor: string;
}

function bilingual(en: string | undefined, no: string | undefined): Bilingual {
  return { en: en ?? "", no: no ?? "" };
}
function optionalBilingual(en: string | undefined, no: string | undefined): Bilingual | undefined {
  return en || no ? bilingual(en, no) : undefined;
}

function found(next: SurveyDefinition | null): SurveyDefinition {
  if (!next) throw refuse("not-found", "part-not-found");
  return next;
}

/** The changed question from the posted form, over the stored one (its id and type stay). */
function questionFrom(existing: SurveyQuestion, v: ChangeOf<typeof INTENT.saveQuestion>): SurveyQuestion {
  const q: SurveyQuestion = { id: existing.id, type: existing.type, text: bilingual(v.textEn, v.textNo), required: v.required === "on" };
  const help = optionalBilingual(v.helpEn, v.helpNo);
  if (help) q.help = help;
  const scorable = ["yes_no", "single_choice", "multiple_choice", "file"].includes(q.type);
  if (scorable && v.weight !== undefined && v.weight > 0) q.weight = v.weight;
  if (q.type === "yes_no" && v.goodAnswer === "no") q.goodAnswer = "no";
  if (q.type === "single_choice" || q.type === "multiple_choice")
    q.options = optionsFromRows((v.options ?? []).map((o) => ({ value: o.value, en: o.en ?? "", no: o.no ?? "", points: o.points })));
  if (q.type === "number") {
    const unit = optionalBilingual(v.unitEn, v.unitNo);
    if (unit) q.unit = unit;
    if (v.min !== undefined) q.min = v.min;
    if (v.max !== undefined) q.max = v.max;
  }
  if (q.type === "file") q.askExpiry = v.askExpiry === "on";
  if (v.showIf) {
    const at = v.showIf.indexOf("=");
    if (at > 0) q.showIf = { question: v.showIf.slice(0, at), equals: v.showIf.slice(at + 1) };
  }
  return q;
}

function saveTemplate(current: SurveyDefinition, v: ChangeOf<typeof INTENT.saveTemplate>): Changed {
  const next = { ...current, title: bilingual(v.titleEn, v.titleNo) };
  if (v.descriptionEn || v.descriptionNo) next.description = bilingual(v.descriptionEn, v.descriptionNo);
  else delete next.description;
  return { next, anchor: "template" };
}

function addNewSection(current: SurveyDefinition, texts: NewTexts): Changed {
  const added = addSection(current, texts);
  return { next: added.definition, anchor: `s-${added.id}` };
}

function saveSection(current: SurveyDefinition, v: ChangeOf<typeof INTENT.saveSection>): Changed {
  const next = updateSection(current, v.sectionId, {
    title: bilingual(v.titleEn, v.titleNo),
    description: optionalBilingual(v.descriptionEn, v.descriptionNo),
  });
  return { next: found(next), anchor: `s-${v.sectionId}` };
}

function moveSectionOf(current: SurveyDefinition, v: ChangeOf<typeof INTENT.moveSection>): Changed {
  const next = moveSection(current, v.sectionId, v.direction);
  if (!next) throw refuse("invalid", "cannot-move");
  return { next, anchor: `s-${v.sectionId}` };
}

function deleteSectionOf(current: SurveyDefinition, v: ChangeOf<typeof INTENT.deleteSection>): Changed {
  return { next: found(deleteSection(current, v.sectionId)), anchor: "sections" };
}

function addNewQuestion(current: SurveyDefinition, v: ChangeOf<typeof INTENT.addQuestion>, texts: NewTexts): Changed {
  const added = addQuestion(current, v.sectionId, v.type, texts);
  if (!added) throw refuse("not-found", "part-not-found");
  return { next: added.definition, anchor: `q-${added.id}` };
}

function saveQuestion(current: SurveyDefinition, v: ChangeOf<typeof INTENT.saveQuestion>): Changed {
  const existing = findQuestion(current, v.questionId);
  return { next: found(existing ? replaceQuestion(current, questionFrom(existing, v)) : null), anchor: `q-${v.questionId}` };
}

function moveQuestionOf(current: SurveyDefinition, v: ChangeOf<typeof INTENT.moveQuestion>): Changed {
  const next = moveQuestion(current, v.questionId, v.direction);
  if (!next && findQuestion(current, v.questionId)) throw refuse("invalid", "cannot-move");
  return { next: found(next), anchor: `q-${v.questionId}` };
}

function deleteQuestionOf(current: SurveyDefinition, v: ChangeOf<typeof INTENT.deleteQuestion>): Changed {
  return { next: found(deleteQuestion(current, v.questionId)), anchor: "sections" };
}

/** The next definition after a change; throws a Refusal ("part-not-found", "cannot-move") when it cannot be made. */
export function applyBuilderChange(current: SurveyDefinition, change: BuilderChange, texts: NewTexts): Changed {
  switch (change.intent) {
    case INTENT.saveTemplate:
      return saveTemplate(current, change);
    case INTENT.addSection:
      return addNewSection(current, texts);
    case INTENT.saveSection:
      return saveSection(current, change);
    case INTENT.moveSection:
      return moveSectionOf(current, change);
    case INTENT.deleteSection:
      return deleteSectionOf(current, change);
    case INTENT.addQuestion:
      return addNewQuestion(current, change, texts);
    case INTENT.saveQuestion:
      return saveQuestion(current, change);
    case INTENT.moveQuestion:
      return moveQuestionOf(current, change);
    case INTENT.deleteQuestion:
      return deleteQuestionOf(current, change);
  }
}

/**
 * Whether a problem of the checked definition belongs to the part the form edits (its message goes next to the field);
 * the others (a condition elsewhere that the change broke, an emptied section) are the form's own.
 */
export function isOwnProblem(change: BuilderChange, p: DefinitionProblem): boolean {
  return (
    (change.intent === INTENT.saveQuestion && p.questionId === change.questionId) ||
    (change.intent === INTENT.saveSection && p.sectionId === change.sectionId && !p.questionId) ||
    (change.intent === INTENT.saveTemplate && !p.sectionId)
  );
}
