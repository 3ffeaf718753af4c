/**
 * The LLM client: the prompt, the OpenAI-compatible chat client and the provider dialects
 * (Anthropic, Azure, Gemini), answer validation and the outcome of a call ({@code ModelOutcome}). It
 * speaks HTTP within {@code http}'s bounds and does not depend on Kafka, the dispatcher or routing.
 */
package io.quotaflow.llm;
