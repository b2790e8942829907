// Who writes a summary (AI_PROVIDER): the offline template, or any OpenAI-compatible Chat Completions endpoint through
// the official `openai` client (its baseURL, per-attempt timeout and retries). A provider failure is an ApiError:
// 502 `AI provider failed: <reason>`, 504 when it did not answer in time.
import type OpenAI from "openai";
import { config } from "../../../config";
import { ApiError } from "../../errors";
import type { SummaryInputs } from "./inputs";
import { FAIR_HOUSING_PHRASES, WORD_LIMITS, type SummaryLength } from "./screen";
import { TEMPLATE_MODEL, templateSummary, type SummaryTone } from "./template";

export interface Written {
  text: string;
  source: "template" | "ai";
  model: string;
}

export interface SummaryProvider {
  write(inputs: SummaryInputs, tone: SummaryTone, length: SummaryLength): Promise<Written>;
}

export const templateProvider: SummaryProvider = {
  write: async (inputs, tone, length) => ({ text: templateSummary(inputs, tone, length), source: "template", model: TEMPLATE_MODEL }),
};

const TONES: Record<SummaryTone, string> = {
  professional: "professional: clear, factual and concise, as to a client or a colleague",
  warm: "warm: friendly and inviting, as to a prospective buyer",
  luxury: "luxury: refined and polished, as for a high-end listing brochure",
};

/** The instructions: the same for every report; the report itself goes in the user message as JSON. */
export function systemPrompt(tone: SummaryTone, length: SummaryLength): string {
  return [
    "You write the executive summary of a real-estate property report for the listing agent.",
    "Use only the facts in the JSON the user sends. Do not invent facts, and write no number that is not in that JSON exactly as given: no percentages, differences, ages or rounded figures you computed yourself.",
    "Name the property by its address or city. Mention the list price when there is one (not in short summaries if space is tight).",
    "Describe the property, never the people who should live there: follow the U.S. Fair Housing Act (42 U.S.C. §3604(c)).",
    `Never use these phrases: ${FAIR_HOUSING_PHRASES.map((p) => p.phrase).join("; ")}.`,
    `Tone: ${TONES[tone]}.`,
    `Length: at most ${WORD_LIMITS[length]} words. Plain prose in one paragraph: no title, no lists, no markdown.`,
  ].join("\n");
}

/**
 * The client class, loaded on first use: the `openai` package takes about 0.1 s of CPU to load, and a process that
 * writes summaries from the template (the default) never needs it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use only (see above)
const openAiClient = (): typeof OpenAI => (require("openai") as { default: typeof OpenAI }).default;

const failed = (reason: string, status = 502) =>
  new ApiError(() => `AI provider failed: ${reason}`, status, status === 504 ? "AI_PROVIDER_TIMEOUT" : "AI_PROVIDER_FAILED");

/** A provider error in a sentence, with nothing of the request (no key) in it. */
function providerError(err: unknown, timeoutMs: number): ApiError {
  if (err instanceof openAiClient().APIConnectionTimeoutError) return failed(`no answer within ${timeoutMs} ms`, 504);
  if (err instanceof openAiClient().APIConnectionError) return failed(`could not connect to the provider${err.cause instanceof Error ? ` (${err.cause.message})` : ""}`);
  if (err instanceof openAiClient().APIError) {
    const detail = (err.error as { message?: unknown } | undefined)?.message;
    return failed(`HTTP ${err.status ?? "error"}${typeof detail === "string" && detail ? `: ${detail.slice(0, 200)}` : ""}`);
  }
  return failed(err instanceof Error ? err.message : String(err));
}

/**
 * Node's fetch, its abort errors rethrown as Errors of this context named AbortError: the client tells a timeout
 * from a failed connection by that, and under a VM sandbox (Jest's) undici's DOMException is no Error here.
 */
const fetchForClient: typeof fetch = (input, init) =>
  fetch(input, init).catch((err: unknown) => {
    if (err instanceof Error || typeof err !== "object" || err === null) throw err;
    const { name, message } = err as { name?: string; message?: string };
    throw Object.assign(new Error(message ?? String(err)), { name: name ?? "Error" });
  });

export function openAiProvider(options: { baseURL?: string; apiKey?: string; model: string; timeoutMs: number }): SummaryProvider {
  const client = new (openAiClient())({
    baseURL: options.baseURL,
    // A local server (llama.cpp, Ollama) needs no key; the client insists on one.
    apiKey: options.apiKey ?? "not-needed",
    timeout: options.timeoutMs,
    maxRetries: 2,
    fetch: fetchForClient,
  });
  return {
    async write(inputs, tone, length) {
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await client.chat.completions.create({
          model: options.model,
          temperature: 0.3,
          messages: [
            { role: "system", content: systemPrompt(tone, length) },
            { role: "user", content: JSON.stringify(inputs) },
          ],
        });
      } catch (err) {
        throw providerError(err, options.timeoutMs);
      }
      const text = completion.choices?.[0]?.message?.content?.trim();
      if (!text) throw failed("the answer had no text");
      return { text, source: "ai", model: completion.model || options.model };
    },
  };
}

let configured: SummaryProvider | undefined;

/** The provider AI_PROVIDER names, made once. */
export function summaryProvider(): SummaryProvider {
  configured ??=
    config.AI_PROVIDER === "openai"
      ? openAiProvider({ baseURL: config.AI_BASE_URL, apiKey: config.AI_API_KEY, model: config.AI_MODEL, timeoutMs: config.AI_TIMEOUT_MS })
      : templateProvider;
  return configured;
}
