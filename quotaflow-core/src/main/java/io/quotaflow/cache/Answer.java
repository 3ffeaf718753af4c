package io.quotaflow.cache;

import java.util.Objects;

/**
 * What one call answered for one content: the labels, the model that gave them, and the call's
 * usage (for information: a cache hit costs nothing).
 *
 * @param category         the category, from the closed set
 * @param urgency          the urgency, from the closed set
 * @param model            the model that answered
 * @param promptTokens     the call's prompt tokens
 * @param completionTokens the call's completion tokens
 */
public record Answer(String category, String urgency, String model, long promptTokens, long completionTokens) {

    public Answer {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(urgency, "urgency");
        Objects.requireNonNull(model, "model");
    }
}
