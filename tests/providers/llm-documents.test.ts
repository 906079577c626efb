import fs from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createLocalAssistant } from "@server/providers/llm/local";
import { bestPassages, keywords } from "@server/providers/llm/local-documents";
import { createOpenAiProvider, DOCUMENT_CONTEXT_CHARS } from "@server/providers/llm/openai";
import type { AssistantViewer, AttachedDocument, ChatMessage } from "@server/providers/llm/types";
import type { AssistantData } from "~/models/assistant/assistant";
import { listenOnLoopback } from "../helpers/loopback";

/**
 * The providers answering about attached documents (decision 030): the local assistant quotes the document's own lines with
 * its name and page, the openai provider sends the text to the model as context. The facts are written once, here, and the
 * document is built from them: an answer that repeats them came from the document.
 */

const FACTS = {
  supplier: "Fjordkraft Logistikk AS",
  deadline: "Leveransefristen er 14. mars 2025 for alle forsendelser.",
  penalty: "Late delivery penalty: NOK 2,500 per day of delay.",
  auditor: "Revisor for 2024 er Hansen & Berg Revisjon.",
};
const REPORT: AttachedDocument = {
  name: "kontrakt_2025.pdf",
  text: [`Kontrakt med ${FACTS.supplier}`, FACTS.deadline].join("\n") + "\f" + [FACTS.penalty, FACTS.auditor].join("\n"),
};

// The document answers need none of the organisation's data: anything the assistant reads from it is a failure here.
const noData = new Proxy({} as AssistantData, {
  get: (_, name) => () => Promise.reject(new Error(`the document answer read assistant data (${String(name)})`)),
});

const viewer = (language: AssistantViewer["language"]): AssistantViewer => ({ userId: 1, organizationId: 1, language });

async function localAnswer(question: string, documents: AttachedDocument[], language: AssistantViewer["language"] = "en"): Promise<string> {
  let text = "";
  const messages: ChatMessage[] = [{ role: "user", content: question }];
  for await (const chunk of createLocalAssistant(noData).stream({ messages, viewer: viewer(language), signal: new AbortController().signal, documents }))
    text += chunk;
  return text;
}

describe("local assistant with an attached document", () => {
  it("quotes the passage that answers the question, naming the document and its page", async () => {
    const answer = await localAnswer("What is the penalty for late delivery?", [REPORT]);
    expect(answer).toContain("From «kontrakt\\_2025.pdf», page 2:");
    expect(answer).toContain(FACTS.penalty);
    expect(answer).not.toContain(FACTS.auditor);
  });

  it("answers in Norwegian with the Norwegian words of the document", async () => {
    const answer = await localAnswer("Når er leveransefristen?", [REPORT], "no");
    expect(answer).toContain("Fra «kontrakt\\_2025.pdf», side 1:");
    expect(answer).toContain(FACTS.deadline);
  });

  it("summarises with the size and the first lines, in both languages", async () => {
    const en = await localAnswer("Summarise the document", [REPORT]);
    expect(en).toContain("«kontrakt\\_2025.pdf» in brief");
    expect(en).toMatch(/2 pages, \d+ characters/);
    expect(en).toContain(`Kontrakt med ${FACTS.supplier}`);
    const no = await localAnswer("Kan du oppsummere dokumentet?", [REPORT], "no");
    expect(no).toContain("i korte trekk");
    expect(no).toMatch(/2 sider, \d+ tegn/);
  });

  it("takes an overview of something else for a question about it, not for a summary of the document", async () => {
    const asked: string[] = [];
    const withData = new Proxy({} as AssistantData, {
      get: (_, name) => () => {
        asked.push(String(name));
        return Promise.resolve(name === "followedSuppliersNamedIn" || name === "findSupplier" ? [] : null);
      },
    });
    let text = "";
    for await (const chunk of createLocalAssistant(withData).stream({
      messages: [{ role: "user", content: "Give me an overview of Equinor" }],
      viewer: viewer("en"),
      signal: new AbortController().signal,
      documents: [REPORT],
    }))
      text += chunk;
    expect(asked).toContain("findSupplier");
    expect(text).not.toContain("in brief");
  });

  it("says it found nothing rather than inventing, when asked about the document", async () => {
    const answer = await localAnswer("What does the document say about insurance?", [REPORT]);
    expect(answer).toContain("I found nothing about that in «kontrakt\\_2025.pdf»");
    for (const fact of Object.values(FACTS)) expect(answer).not.toContain(fact);
  });

  it("says a document without text cannot be used", async () => {
    const answer = await localAnswer("What does the file say?", [{ name: "scan.pdf", text: "" }]);
    expect(answer).toContain("No text could be read from «scan.pdf»");
  });

  it("leaves a question about something else to the other answers", async () => {
    const asked: string[] = [];
    const answers: Record<string, unknown> = { followedSuppliersNamedIn: [], highestRiskSuppliers: { total: 0, suppliers: [] } };
    const withData = new Proxy({} as AssistantData, {
      get: (_, name) => () => {
        asked.push(String(name));
        return Promise.resolve(answers[String(name)] ?? null);
      },
    });
    let text = "";
    for await (const chunk of createLocalAssistant(withData).stream({
      messages: [{ role: "user", content: "Which suppliers have the highest risk?" }],
      viewer: viewer("en"),
      signal: new AbortController().signal,
      documents: [REPORT],
    }))
      text += chunk;
    expect(asked).toContain("highestRiskSuppliers");
    for (const fact of Object.values(FACTS)) expect(text).not.toContain(fact);
  });

  it("joins a line the PDF wrapped to the next, and quotes a repeated passage once", () => {
    const wrapped: AttachedDocument = {
      name: "w.pdf",
      text: `Intro\nThe inspection found corroded\nwelding on three hulls.\fThe inspection found corroded\nwelding on three hulls.`,
    };
    expect(bestPassages([wrapped], "corroded welding").map((p) => [p.page, p.text])).toEqual([[1, "The inspection found corroded welding on three hulls."]]);
  });

  it("keywords leave out the small words and the word 'document'", () => {
    expect(keywords("What does the document say about the penalty?")).toEqual(["penalty"]);
    expect(bestPassages([REPORT], "revisor 2024").map((p) => [p.page, p.text])).toEqual([[2, FACTS.auditor]]);
  });
});

describe("openai provider with an attached document", () => {
  it("sends the document's name and text to the model as a system message, cut to the budget", async () => {
    const bodies: { messages: { role: string; content: string }[] }[] = [];
    const server = http.createServer((req, res) => {
      const raw: Buffer[] = [];
      req.on("data", (part: Buffer) => raw.push(part));
      req.on("end", () => {
        bodies.push(JSON.parse(Buffer.concat(raw).toString("utf8")) as (typeof bodies)[number]);
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.end(fs.readFileSync(fileURLToPath(new URL("../fixtures/llm/answer.sse", import.meta.url))));
      });
    });
    const { baseUrl } = await listenOnLoopback(server);
    const provider = createOpenAiProvider({ baseUrl, model: "test-model", tools: [] });
    const long: AttachedDocument = { name: "long.txt", text: `START ${"x".repeat(DOCUMENT_CONTEXT_CHARS * 2)} END` };
    let answer = "";
    for await (const chunk of provider.stream({
      messages: [{ role: "user", content: "What is the penalty?" }],
      viewer: viewer("en"),
      signal: new AbortController().signal,
      documents: [REPORT, long],
    }))
      answer += chunk;
    expect(answer.length).toBeGreaterThan(0);
    const context = bodies[0]!.messages.find((m) => m.role === "system" && m.content.includes("<document"))!;
    expect(context.content).toContain('<document name="kontrakt_2025.pdf">');
    for (const fact of Object.values(FACTS)) expect(context.content).toContain(fact);
    expect(context.content).toContain("START");
    expect(context.content).not.toContain("END");
    expect(context.content.length).toBeLessThan(DOCUMENT_CONTEXT_CHARS + 2000);
    expect(bodies[0]!.messages.at(-1)).toEqual({ role: "user", content: "What is the penalty?" });
  });
});
