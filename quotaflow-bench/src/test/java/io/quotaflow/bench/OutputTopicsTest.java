package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class OutputTopicsTest {

    @Test
    void shouldReadClassifiedAtFromAResult() {
        byte[] result = "{\"id\":\"T-1\",\"category\":\"billing\",\"classifiedAt\":\"2026-11-30T06:00:01.532Z\"}"
                .getBytes(StandardCharsets.UTF_8);

        assertThat(OutputTopics.classifiedAtMs(result)).isEqualTo(java.time.Instant.parse("2026-11-30T06:00:01.532Z").toEpochMilli());
        assertThat(OutputTopics.classifiedAtMs("{\"id\":\"T-1\"}".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(OutputTopics.classifiedAtMs("not json".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(OutputTopics.classifiedAtMs(null)).isNull();
    }
}
