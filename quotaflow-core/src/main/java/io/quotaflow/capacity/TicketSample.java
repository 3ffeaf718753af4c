package io.quotaflow.capacity;

import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.settings.BatchSettings;

import java.util.ArrayList;
import java.util.List;

/**
 * Tokens a request measured on real tickets, as a route would send them: tickets grouped in arrival
 * order into calls of at most {@code batch.max-items} tickets and {@code batch.max-prompt-tokens} prompt
 * tokens by the dispatcher's estimate (a larger ticket goes alone), each prompt counted exactly with the
 * route's tokenizer and prompt, as the provider counts it, and
 * each call's {@code max_tokens} as the first calls send it (the pipeline then learns a tighter one from
 * the answers, so this errs high). A TPM limit counts prompt + {@code max_tokens} at admission.
 *
 * @param tickets          tickets measured
 * @param requests         calls they would take
 * @param promptTokens     prompt tokens of those calls
 * @param maxTokens        {@code max_tokens} of those calls
 */
public record TicketSample(int tickets, int requests, long promptTokens, long maxTokens) {

    /** Measures {@code items} with {@code prompt} and {@code batch}; at least one ticket. */
    public static TicketSample measure(List<ModelItem> items, PromptBuilder prompt, BatchSettings batch) {
        if (items.isEmpty()) {
            throw new IllegalArgumentException("no tickets to measure");
        }
        int requests = 0;
        long promptTokens = 0;
        long maxTokens = 0;
        List<ModelItem> call = new ArrayList<>();
        int callTokens = 0;
        for (ModelItem item : items) {
            // grouped by the dispatcher's estimate, counted exactly (what the provider counts)
            int tokens = prompt.itemTokens(item);
            boolean full = call.size() == batch.maxItems()
                    || !call.isEmpty() && prompt.fixedTokens() + callTokens + tokens > batch.maxPromptTokens();
            if (full) {
                requests++;
                promptTokens += prompt.build(call, batch.maxTokensFor(call.size())).promptTokens();
                maxTokens += batch.maxTokensFor(call.size());
                call.clear();
                callTokens = 0;
            }
            call.add(item);
            callTokens += tokens;
        }
        requests++;
        promptTokens += prompt.build(call, batch.maxTokensFor(call.size())).promptTokens();
        maxTokens += batch.maxTokensFor(call.size());
        return new TicketSample(items.size(), requests, promptTokens, maxTokens);
    }

    /** Tokens a TPM limit counts for one call, on average. */
    public double tokensPerRequest() {
        return (double) (promptTokens + maxTokens) / requests;
    }

    /** Tickets one call carries, on average. */
    public double ticketsPerRequest() {
        return (double) tickets / requests;
    }

    /** Tokens a TPM limit counts for one ticket, on average. */
    public double tokensPerTicket() {
        return (double) (promptTokens + maxTokens) / tickets;
    }
}
