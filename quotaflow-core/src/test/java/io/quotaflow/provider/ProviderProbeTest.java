package io.quotaflow.provider;

import io.quotaflow.http.RawHttpServer;
import io.quotaflow.llm.TransportCause;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.Secret;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The check's requests are bounded as a whole: a stalled answer ends the check at its timeout. */
class ProviderProbeTest {

    @Test
    void shouldEndACheckWhoseModelsListStallsAfterItsHeadersAtTheTimeoutAndCloseTheConnection() throws Exception {
        try (RawHttpServer server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(10_000));
            out.write("{\"object\":\"list\",\"data\":[{\"id\":\"gpt-4o".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        });
             ProviderProbe probe = new ProviderProbe(Duration.ofMillis(500))) {
            RouteSettings route = RouteSettings.of("default", ModelSettings.of(server.uri("/v1"), "gpt-4o-mini",
                    Secret.of("sk-probe-test-secret-0123456789")), QuotaSettings.ofDefaults());
            long start = System.nanoTime();

            ProbeReport report = probe.check(route, true).get(10, TimeUnit.SECONDS);

            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(tookMs).isLessThan(3_000);
            assertThat(report.failed()).isTrue();
            assertThat(report.summary()).contains("FAIL reachable").contains(TransportCause.TIMEOUT)
                    .doesNotContain("sk-probe-test-secret");
            assertThat(server.accepted()).as("no chat call after a failed list").isEqualTo(1);
            assertThat(server.awaitClosedByClient(5_000)).isTrue();
        }
    }
}
