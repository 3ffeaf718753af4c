package io.quotaflow.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.wire.TokenCounter.ChatMessage;

import java.util.List;

/**
 * A built chat-completions request.
 *
 * @param items        the tickets it classifies
 * @param messages     system and user messages
 * @param body         the JSON request body
 * @param promptTokens prompt tokens as the provider counts them
 * @param maxTokens    the {@code max_tokens} sent
 */
public record ChatPrompt(List<ModelItem> items, List<ChatMessage> messages, ObjectNode body, int promptTokens, int maxTokens) {

    /** What the provider's limiter charges on admission: prompt plus {@code max_tokens}. */
    public int admissionCost() {
        return promptTokens + maxTokens;
    }
}
