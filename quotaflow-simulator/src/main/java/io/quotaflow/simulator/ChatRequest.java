package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.tokens.TokenCounter.ChatMessage;

import java.util.List;

/**
 * A chat-completion request that passed the checks of {@link RequestChecker#check}.
 *
 * @param json      the whole request (its {@code response_format} names the closed sets)
 * @param model     the served model it names
 * @param messages  role/content pairs, content parts joined
 * @param maxTokens {@code max_completion_tokens}, else {@code max_tokens}, else the configured default
 * @param maxGiven  whether the request gave one of the two
 */
record ChatRequest(JsonNode json, String model, List<ChatMessage> messages, int maxTokens, boolean maxGiven) {

    ChatRequest {
        messages = List.copyOf(messages);
    }

    /** The last user message's content, or "" when there is none. */
    String lastUserContent() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                return messages.get(i).content();
            }
        }
        return "";
    }
}
