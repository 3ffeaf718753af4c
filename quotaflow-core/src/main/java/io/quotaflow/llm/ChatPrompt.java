package io.quotaflow.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.tokens.TokenCounter.ChatMessage;

import java.util.List;

/**
 * A built chat-completions request.
 *
 * @param items        the tickets it classifies
 * @param wireIds      the id each of them has in the request (and so in the answer), in the same order:
 *                     {@code "1"}, {@code "2"}, ... with short ids, else the ticket's own
 * @param messages     system and user messages
 * @param body         the JSON request body
 * @param promptTokens prompt tokens as the provider counts them
 * @param maxTokens    the {@code max_tokens} sent
 */
public record ChatPrompt(List<ModelItem> items, List<String> wireIds, List<ChatMessage> messages, ObjectNode body, int promptTokens,
                         int maxTokens) {

    public ChatPrompt {
        if (wireIds.size() != items.size()) {
            throw new IllegalArgumentException("one wire id per item: " + wireIds.size() + " for " + items.size());
        }
    }

    /** A prompt whose tickets go by their own ids. */
    public ChatPrompt(List<ModelItem> items, List<ChatMessage> messages, ObjectNode body, int promptTokens, int maxTokens) {
        this(items, items.stream().map(ModelItem::id).toList(), messages, body, promptTokens, maxTokens);
    }

    /** What the provider's limiter charges on admission: prompt plus {@code max_tokens}. */
    public int admissionCost() {
        return promptTokens + maxTokens;
    }
}
