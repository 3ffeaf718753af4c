package io.quotaflow.tracing;

import io.quotaflow.settings.MetricsSettings;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which of {@code -Dotel.traces.exporter}, {@code OTEL_TRACES_EXPORTER} and the {@code otel.traces.exporter} key wins. */
class TracingSetupTest {

    private static final MetricsSettings.Traces KEY_OTLP = new MetricsSettings.Traces("otlp", false);

    @Test
    void shouldLetTheVariableWinOverTheKey() {
        assertThat(TracingSetup.start(KEY_OTLP, Map.of("OTEL_TRACES_EXPORTER", "none")::get, k -> null)).isSameAs(Tracing.NOOP);
    }

    @Test
    void shouldLetTheSystemPropertyWinOverTheVariableAndTheKey() {
        assertThat(TracingSetup.start(KEY_OTLP, Map.of("OTEL_TRACES_EXPORTER", "otlp")::get,
                Map.of("otel.traces.exporter", "none")::get)).isSameAs(Tracing.NOOP);
    }

    @Test
    void shouldStartTheSdkFromTheVariableWithoutTheKey() {
        Tracing tracing = TracingSetup.start(MetricsSettings.Traces.DEFAULT, Map.of("OTEL_TRACES_EXPORTER", "otlp")::get, k -> null);
        try {
            assertThat(tracing).isInstanceOf(OtelTracing.class);
        } finally {
            tracing.close();
        }
    }
}
