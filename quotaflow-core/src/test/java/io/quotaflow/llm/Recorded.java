package io.quotaflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** One recorded provider answer of {@code src/test/resources/dialects} (see its README for the sources). */
record Recorded(int status, Map<String, String> headers, String body, JsonNode root) {

    /** When the Anthropic example's resets are read: 16:10:00 UTC on the day they name. */
    static final Instant NOW = Instant.parse("2026-12-02T16:10:00Z");

    static Recorded load(String name) {
        try (InputStream in = Recorded.class.getResourceAsStream("/dialects/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no recorded answer " + name);
            }
            JsonNode file = Json.MAPPER.readTree(in);
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            file.path("headers").fields().forEachRemaining(e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue().asText()));
            JsonNode body = file.get("body");
            return new Recorded(file.path("status").asInt(), headers, Json.MAPPER.writeValueAsString(body), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Its headers as {@code dialect} reads them. */
    RateLimitInfo limits(ProviderDialect dialect) {
        return dialect.rateLimits(name -> Optional.ofNullable(headers.get(name)), NOW);
    }

    /** What {@code dialect} makes of it. */
    ModelOutcome outcome(ProviderDialect dialect) {
        return dialect.error(new ErrorAnswer(status, limits(dialect), body, 42, m -> m));
    }
}
