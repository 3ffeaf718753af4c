package io.quotaflow.cache;

import java.time.Duration;
import java.util.Objects;

/**
 * A classification kept in the cache (docs/design.md, "Cache"): what the call answered, when, and
 * until when it answers identical tickets. The value of {@link CacheStores#ANSWERS}.
 *
 * @param category         the category
 * @param urgency          the urgency
 * @param model            the model that answered
 * @param answeredAt       epoch ms of the answer
 * @param expiresAt        epoch ms from which it no longer answers ({@code answeredAt + cache.ttl})
 * @param promptTokens     the original call's prompt tokens (for information)
 * @param completionTokens the original call's completion tokens (for information)
 */
public record CachedAnswer(String category, String urgency, String model, long answeredAt, long expiresAt,
                           long promptTokens, long completionTokens) {

    public CachedAnswer {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(urgency, "urgency");
        Objects.requireNonNull(model, "model");
        if (expiresAt < answeredAt) {
            throw new IllegalArgumentException("expiresAt " + expiresAt + " is before answeredAt " + answeredAt);
        }
    }

    /** {@code answer} given at {@code answeredAt}, kept for {@code ttl}. */
    public static CachedAnswer of(Answer answer, long answeredAt, Duration ttl) {
        long expiresAt = ttl.toMillis() > Long.MAX_VALUE - answeredAt ? Long.MAX_VALUE : answeredAt + ttl.toMillis();
        return new CachedAnswer(answer.category(), answer.urgency(), answer.model(), answeredAt, expiresAt,
                answer.promptTokens(), answer.completionTokens());
    }

    /** Whether it no longer answers at {@code now}. */
    public boolean expiredAt(long now) {
        return now >= expiresAt;
    }
}
