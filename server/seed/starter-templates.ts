import type { Kysely } from "kysely";
import type { SurveyDefinition, SurveyQuestion } from "~/models/tasks/survey-definition";
import type { DB } from "../db-types";

/**
 * The starter templates every installation has (decision 032): system-wide (organization_id NULL), found by `key`, in
 * English and Norwegian. Organisations send them as they are or duplicate them into their own templates and adapt them.
 * `ensureStarterTemplates` runs at every server start (server/main.ts) and in the demo seed; it is idempotent.
 */

type Q = SurveyQuestion;
const yesNo = (id: string, en: string, no: string, extra: Partial<Q> = {}): Q => ({
  id,
  type: "yes_no",
  text: { en, no },
  required: true,
  weight: 1,
  ...extra,
});
const evidence = (id: string, en: string, no: string, showIf: Q["showIf"], extra: Partial<Q> = {}): Q => ({
  id,
  type: "file",
  text: { en, no },
  required: true,
  askExpiry: true,
  showIf,
  weight: 1,
  ...extra,
});
const longText = (id: string, en: string, no: string, extra: Partial<Q> = {}): Q => ({ id, type: "long_text", text: { en, no }, required: false, ...extra });

/** (a) Due diligence for the Norwegian Transparency Act (åpenhetsloven §§ 4–5), following the OECD guidelines. */
export const HUMAN_RIGHTS_SURVEY: SurveyDefinition = {
  title: {
    en: "Supplier code of conduct and human rights self-assessment",
    no: "Egenvurdering av etiske retningslinjer og menneskerettigheter for leverandører",
  },
  description: {
    en: "Our due diligence under the Norwegian Transparency Act (sections 4 and 5) follows the OECD Guidelines for Multinational Enterprises. Please answer for your own company and tell us how you follow up your sub-suppliers.",
    no: "Vår aktsomhetsvurdering etter åpenhetsloven §§ 4 og 5 følger OECDs retningslinjer for flernasjonale selskaper. Svar for eget selskap, og fortell oss hvordan dere følger opp deres underleverandører.",
  },
  sections: [
    {
      id: "company",
      title: { en: "Your company", no: "Selskapet deres" },
      questions: [
        {
          id: "contact_name",
          type: "short_text",
          text: { en: "Name and role of the person answering", no: "Navn og rolle til den som svarer" },
          required: true,
        },
        {
          id: "employees",
          type: "number",
          text: { en: "Number of employees", no: "Antall ansatte" },
          unit: { en: "employees", no: "ansatte" },
          min: 0,
          max: 1000000,
          required: true,
        },
        {
          id: "countries",
          type: "multiple_choice",
          text: { en: "Where is the work for us carried out?", no: "Hvor utføres arbeidet for oss?" },
          help: { en: "Choose every region that applies.", no: "Velg alle regioner som gjelder." },
          required: true,
          options: [
            { value: "norway", label: { en: "Norway", no: "Norge" } },
            { value: "nordics_eu", label: { en: "Other Nordic or EU/EEA countries", no: "Andre nordiske land eller EU/EØS" } },
            { value: "europe_other", label: { en: "Europe outside the EU/EEA", no: "Europa utenfor EU/EØS" } },
            { value: "asia", label: { en: "Asia", no: "Asia" } },
            { value: "americas", label: { en: "The Americas", no: "Amerika" } },
            { value: "africa", label: { en: "Africa", no: "Afrika" } },
          ],
        },
      ],
    },
    {
      id: "policy",
      title: { en: "Policies and responsibility", no: "Retningslinjer og ansvar" },
      questions: [
        yesNo(
          "has_policy",
          "Do you have a written policy on human rights and decent working conditions, approved by the management?",
          "Har dere skriftlige retningslinjer for menneskerettigheter og anstendige arbeidsforhold, vedtatt av ledelsen?",
          { weight: 3 },
        ),
        evidence("policy_file", "Upload the policy", "Last opp retningslinjene", { question: "has_policy", equals: "yes" }, { weight: 2 }),
        {
          id: "policy_date",
          type: "date",
          text: { en: "When was the policy last reviewed?", no: "Når ble retningslinjene sist gjennomgått?" },
          required: false,
          showIf: { question: "has_policy", equals: "yes" },
        },
        yesNo(
          "responsible",
          "Is a named person in the management responsible for following up human rights?",
          "Har en navngitt person i ledelsen ansvar for å følge opp menneskerettigheter?",
          { weight: 2 },
        ),
        yesNo("signed_coc", "Will you sign our supplier code of conduct?", "Vil dere signere våre etiske retningslinjer for leverandører?", { weight: 2 }),
      ],
    },
    {
      id: "risk",
      title: { en: "Risk assessment", no: "Risikovurdering" },
      questions: [
        {
          id: "risk_assessment",
          type: "single_choice",
          text: {
            en: "How often do you assess the risk of harm to people, society and the environment in your supply chain?",
            no: "Hvor ofte vurderer dere risikoen for skade på mennesker, samfunn og miljø i leverandørkjeden?",
          },
          required: true,
          weight: 3,
          options: [
            { value: "yearly", label: { en: "At least once a year", no: "Minst én gang i året" }, points: 100 },
            { value: "sometimes", label: { en: "Now and then, without a fixed routine", no: "Av og til, uten fast rutine" }, points: 40 },
            { value: "never", label: { en: "Not yet", no: "Ikke ennå" }, points: 0 },
          ],
        },
        longText(
          "main_risks",
          "Which risks did you find most serious, and what do you do about them?",
          "Hvilke risikoer fant dere mest alvorlige, og hva gjør dere med dem?",
          {
            showIf: { question: "risk_assessment", equals: "yearly" },
          },
        ),
      ],
    },
    {
      id: "labour",
      title: { en: "Human rights and decent work", no: "Menneskerettigheter og anstendig arbeid" },
      questions: [
        yesNo(
          "no_forced_labour",
          "Do you make sure that no one works for you against their will (no forced labour, no withheld passports or wages, no recruitment fees)?",
          "Sikrer dere at ingen arbeider for dere mot sin vilje (ikke tvangsarbeid, ingen tilbakeholdte pass eller lønn, ingen rekrutteringsgebyrer)?",
          { weight: 3 },
        ),
        yesNo(
          "no_child_labour",
          "Do you check the age of every worker, so that no child labour is used?",
          "Kontrollerer dere alderen til alle arbeidere, slik at det ikke brukes barnearbeid?",
          { weight: 3 },
        ),
        yesNo(
          "living_wage",
          "Are all workers paid at least the legal minimum wage, and a wage they can live on?",
          "Får alle arbeidere minst lovpålagt minstelønn, og en lønn de kan leve av?",
          { weight: 2 },
        ),
        {
          id: "weekly_hours",
          type: "number",
          text: { en: "Normal working hours per week, overtime included", no: "Vanlig arbeidstid per uke, overtid medregnet" },
          unit: { en: "hours", no: "timer" },
          min: 0,
          max: 168,
          required: true,
        },
        yesNo(
          "hse",
          "Do you have a health, safety and environment (HSE) system with registration of injuries?",
          "Har dere et HMS-system med registrering av skader?",
          { weight: 2 },
        ),
        yesNo(
          "association",
          "Are workers free to join trade unions and bargain collectively?",
          "Står arbeiderne fritt til å organisere seg og forhandle kollektivt?",
          { weight: 2 },
        ),
      ],
    },
    {
      id: "supply_chain",
      title: { en: "Sub-suppliers, grievances and remediation", no: "Underleverandører, varsling og gjenoppretting" },
      questions: [
        {
          id: "sub_supplier_followup",
          type: "multiple_choice",
          text: { en: "How do you follow up your own sub-suppliers?", no: "Hvordan følger dere opp egne underleverandører?" },
          required: true,
          weight: 2,
          options: [
            { value: "code", label: { en: "They sign our code of conduct", no: "De signerer våre etiske retningslinjer" }, points: 40 },
            { value: "survey", label: { en: "Self-assessments", no: "Egenvurderinger" }, points: 30 },
            { value: "audit", label: { en: "Audits or visits", no: "Revisjoner eller besøk" }, points: 30 },
            { value: "none", label: { en: "No follow-up yet", no: "Ingen oppfølging ennå" }, points: 0 },
          ],
        },
        yesNo(
          "grievance",
          "Can workers and others report concerns anonymously (a grievance or whistleblowing channel)?",
          "Kan arbeidere og andre varsle anonymt om kritikkverdige forhold (varslingskanal)?",
          { weight: 2 },
        ),
        yesNo(
          "incidents",
          "Have you found breaches of human rights or decent work in the last three years?",
          "Har dere avdekket brudd på menneskerettigheter eller anstendig arbeid de siste tre årene?",
          {
            goodAnswer: "no",
            weight: 1,
          },
        ),
        longText("remediation", "Describe the breaches and how they were remedied", "Beskriv bruddene og hvordan de ble rettet opp", {
          required: true,
          showIf: { question: "incidents", equals: "yes" },
        }),
      ],
    },
    {
      id: "environment",
      title: { en: "Environment and anti-corruption", no: "Miljø og antikorrupsjon" },
      questions: [
        yesNo(
          "environment_goals",
          "Do you have goals for reducing your greenhouse gas emissions and environmental impact?",
          "Har dere mål for å redusere klimagassutslipp og miljøpåvirkning?",
          { weight: 1 },
        ),
        yesNo(
          "anti_corruption",
          "Do you have anti-corruption rules that your employees are trained in?",
          "Har dere regler mot korrupsjon som de ansatte får opplæring i?",
          { weight: 2 },
        ),
        longText("comments", "Anything else you want to tell us?", "Er det noe annet dere vil fortelle oss?"),
      ],
    },
  ],
};

/** (b) A basic information-security survey. */
export const INFORMATION_SECURITY_SURVEY: SurveyDefinition = {
  title: { en: "Information security for suppliers", no: "Informasjonssikkerhet hos leverandører" },
  description: {
    en: "How you protect the information and systems you handle for us. Answer for the services you deliver to us.",
    no: "Hvordan dere beskytter informasjonen og systemene dere håndterer for oss. Svar for tjenestene dere leverer til oss.",
  },
  sections: [
    {
      id: "governance",
      title: { en: "Governance and certification", no: "Styring og sertifisering" },
      questions: [
        {
          id: "security_owner",
          type: "short_text",
          text: { en: "Who is responsible for information security (name and e-mail)?", no: "Hvem har ansvaret for informasjonssikkerhet (navn og e-post)?" },
          required: true,
        },
        {
          id: "certification",
          type: "single_choice",
          text: { en: "Which certification or attestation do you have?", no: "Hvilken sertifisering eller attestasjon har dere?" },
          required: true,
          weight: 3,
          options: [
            { value: "iso27001", label: { en: "ISO/IEC 27001", no: "ISO/IEC 27001" }, points: 100 },
            { value: "soc2", label: { en: "SOC 2 Type II", no: "SOC 2 Type II" }, points: 100 },
            { value: "other", label: { en: "Another recognised standard", no: "En annen anerkjent standard" }, points: 60 },
            { value: "none", label: { en: "None", no: "Ingen" }, points: 0 },
          ],
        },
        evidence(
          "certificate",
          "Upload the certificate or the latest report",
          "Last opp sertifikatet eller siste rapport",
          { question: "certification", equals: "iso27001" },
          { weight: 2 },
        ),
        evidence("soc2_report", "Upload the SOC 2 report", "Last opp SOC 2-rapporten", { question: "certification", equals: "soc2" }, { weight: 2 }),
      ],
    },
    {
      id: "controls",
      title: { en: "Access, backups and vulnerabilities", no: "Tilgang, sikkerhetskopier og sårbarheter" },
      questions: [
        yesNo(
          "mfa",
          "Is multi-factor authentication required for every account with access to our data?",
          "Kreves flerfaktorautentisering for alle kontoer med tilgang til våre data?",
          { weight: 3 },
        ),
        yesNo("access_review", "Are access rights reviewed at least twice a year?", "Gjennomgås tilgangsrettigheter minst to ganger i året?", { weight: 1 }),
        yesNo(
          "backups",
          "Are backups taken daily, kept apart from production, and restored in a test at least yearly?",
          "Tas det sikkerhetskopi daglig, lagret atskilt fra produksjon, og testes gjenoppretting minst årlig?",
          { weight: 2 },
        ),
        {
          id: "last_restore_test",
          type: "date",
          text: { en: "Date of the last restore test", no: "Dato for siste gjenopprettingstest" },
          required: false,
          showIf: { question: "backups", equals: "yes" },
        },
        {
          id: "patching",
          type: "single_choice",
          text: { en: "How quickly are critical security updates installed?", no: "Hvor raskt installeres kritiske sikkerhetsoppdateringer?" },
          required: true,
          weight: 2,
          options: [
            { value: "days", label: { en: "Within 7 days", no: "Innen 7 dager" }, points: 100 },
            { value: "month", label: { en: "Within 30 days", no: "Innen 30 dager" }, points: 50 },
            { value: "later", label: { en: "Later or without a routine", no: "Senere eller uten rutine" }, points: 0 },
          ],
        },
        yesNo("pentest", "Is a penetration test carried out at least yearly?", "Gjennomføres en penetrasjonstest minst én gang i året?", { weight: 1 }),
      ],
    },
    {
      id: "incidents",
      title: { en: "Incidents", no: "Hendelser" },
      questions: [
        yesNo(
          "incident_plan",
          "Do you have a written plan for handling security incidents?",
          "Har dere en skriftlig plan for håndtering av sikkerhetshendelser?",
          { weight: 2 },
        ),
        {
          id: "notify_hours",
          type: "number",
          text: {
            en: "Within how many hours do you notify us of a security breach that concerns our data?",
            no: "Innen hvor mange timer varsler dere oss om et sikkerhetsbrudd som gjelder våre data?",
          },
          unit: { en: "hours", no: "timer" },
          min: 0,
          max: 720,
          required: true,
        },
      ],
    },
    {
      id: "privacy",
      title: { en: "Data location and privacy", no: "Datalagring og personvern" },
      questions: [
        {
          id: "data_location",
          type: "multiple_choice",
          text: { en: "Where are our data stored and processed?", no: "Hvor lagres og behandles våre data?" },
          required: true,
          options: [
            { value: "norway", label: { en: "Norway", no: "Norge" } },
            { value: "eea", label: { en: "Elsewhere in the EU/EEA", no: "Andre steder i EU/EØS" } },
            { value: "third", label: { en: "Outside the EU/EEA", no: "Utenfor EU/EØS" } },
          ],
        },
        longText("transfer_basis", "What is the legal basis for transfers outside the EU/EEA?", "Hva er overføringsgrunnlaget for overføring ut av EU/EØS?", {
          required: true,
          showIf: { question: "data_location", equals: "third" },
        }),
        yesNo(
          "dpa",
          "Will you sign a data processing agreement (GDPR article 28) with us?",
          "Vil dere inngå en databehandleravtale (personvernforordningen artikkel 28) med oss?",
          { weight: 3 },
        ),
        longText(
          "sub_processors",
          "List your sub-processors (name, service and country)",
          "List opp underleverandørene (underdatabehandlerne) deres (navn, tjeneste og land)",
          { required: true },
        ),
      ],
    },
  ],
};

export interface StarterSurvey {
  key: string;
  definition: SurveyDefinition;
}

export const STARTER_SURVEYS: StarterSurvey[] = [
  { key: "starter-human-rights", definition: HUMAN_RIGHTS_SURVEY },
  { key: "starter-information-security", definition: INFORMATION_SECURITY_SURVEY },
];

export interface StarterTask {
  key: string;
  title: { en: string; no: string };
  description: { en: string; no: string };
  dueInDays: number;
}

export const STARTER_TASKS: StarterTask[] = [
  {
    key: "starter-sign-code-of-conduct",
    title: { en: "Sign the supplier code of conduct", no: "Signer de etiske retningslinjene for leverandører" },
    description: {
      en: "Read our **supplier code of conduct**, sign it and upload the signed copy.\n\nThe code covers human rights, decent working conditions, the environment and anti-corruption, as the Norwegian Transparency Act asks us to follow up.",
      no: "Les våre **etiske retningslinjer for leverandører**, signer dem og last opp den signerte kopien.\n\nRetningslinjene omfatter menneskerettigheter, anstendige arbeidsforhold, miljø og antikorrupsjon, slik åpenhetsloven krever at vi følger opp.",
    },
    dueInDays: 30,
  },
];

/**
 * Makes the starter templates exist (by key): a missing one is created with version 1. One that exists is left as it
 * is — the operator may have edited it in the builder, and a restart must not undo that. Cheap at every start.
 */
export async function ensureStarterTemplates(database: Kysely<DB>, at: Date = new Date()): Promise<{ created: number }> {
  const now = at.toISOString();
  let created = 0;
  for (const starter of STARTER_SURVEYS) {
    const template = await database.selectFrom("survey_templates").select("id").where("key", "=", starter.key).executeTakeFirst();
    if (template) continue;
    await database.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("survey_templates")
        .values({
          organization_id: null,
          key: starter.key,
          title: starter.definition.title.en,
          title_no: starter.definition.title.no,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("survey_template_versions")
        .values({ template_id: row.id, version: 1, definition: JSON.stringify(starter.definition), created_at: now })
        .execute();
    });
    created++;
  }
  for (const starter of STARTER_TASKS) {
    const values = {
      title: starter.title.en,
      title_no: starter.title.no,
      description: starter.description.en,
      description_no: starter.description.no,
      due_in_days: starter.dueInDays,
    };
    const existing = await database.selectFrom("compliance_task_templates").select("id").where("key", "=", starter.key).executeTakeFirst();
    if (!existing) {
      await database
        .insertInto("compliance_task_templates")
        .values({ ...values, organization_id: null, key: starter.key, template_file_id: null, created_at: now, updated_at: now })
        .execute();
      created++;
    }
  }
  return { created };
}
