package io.quotaflow.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code log.format=json}: one object per line, the five fields, ISO-8601 times. */
class JsonLineLayoutTest {

    private final LoggerContext context = (LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory();

    @Test
    void shouldWriteOneJsonObjectOnOneLineWithTheFormattedMessage() throws Exception {
        LoggingEvent event = new LoggingEvent("x", context.getLogger("io.quotaflow.Pipeline"), Level.INFO,
                "route {} recovered: \"{}\"\nnext line", null, new Object[] {"default", "ok"});
        event.setTimeStamp(1_764_681_302_417L);
        event.setThreadName("main");

        String line = new JsonLineLayout().doLayout(event);

        assertThat(line).endsWith("\n").doesNotContain("\r");
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode json = Json.MAPPER.readTree(line);
        assertThat(json.get("timestamp").asText()).isEqualTo("2025-12-02T13:15:02.417Z");
        assertThat(json.get("level").asText()).isEqualTo("INFO");
        assertThat(json.get("logger").asText()).isEqualTo("io.quotaflow.Pipeline");
        assertThat(json.get("thread").asText()).isEqualTo("main");
        assertThat(json.get("message").asText()).isEqualTo("route default recovered: \"ok\"\nnext line");
        assertThat(json.has("exception")).isFalse();
    }

    @Test
    void shouldCarryTheStackTraceAsText() throws Exception {
        LoggingEvent event = new LoggingEvent("x", context.getLogger("org.apache.kafka.X"), Level.ERROR, "failed",
                new IllegalStateException("boom"), null);

        JsonNode json = Json.MAPPER.readTree(new JsonLineLayout().doLayout(event));

        assertThat(json.get("level").asText()).isEqualTo("ERROR");
        assertThat(json.get("exception").asText()).contains("java.lang.IllegalStateException: boom").contains("\tat ");
    }
}
