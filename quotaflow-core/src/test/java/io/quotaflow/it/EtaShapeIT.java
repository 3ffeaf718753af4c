package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.records.Json;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.HeaderMoment;
import io.quotaflow.simulator.SimTokenizer;
import io.quotaflow.status.QueueView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /tickets/{id}}'s ETA on a provider shaped unlike the one the client assumes: it counts
 * cl100k_base (the client o200k_base), holds a 5 s bucket, takes its headers at admission and debits
 * the prompt only (no {@code max_tokens}), so what the limiter charges a ticket is well above what
 * the provider admits. Tickets spread over a backlog, asked once the limits bind, are done within a
 * quarter of the time they still had to wait (the median), as docs/benchmark.md's (m) asks of its
 * {@code input} provider.
 */
class EtaShapeIT {

    private static final int TICKETS = 1_200;
    private static final int RPM = 600;
    private static final int TPM = 60_000;
    private static final int PROBES = 6;

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-eta", RPM, TPM, 150, b -> b.tokenizer(SimTokenizer.CL100K_BASE)
            .headersAt(HeaderMoment.ADMISSION).chargesMaxTokens(false));

    private final HttpClient http = HttpClient.newHttpClient();

    private JsonNode get(Pipeline p, String id) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.httpPort() + "/tickets/" + id))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldEstimateWithinAQuarterOfTheWaitOnAProviderCountingThePromptOnly() throws Exception {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(RPM).withTpm(TPM);
        try (Pipeline p = Pipeline.start(it.config("quotaflow-eta", quota, RetrySettings.ofDefaults()).withHttp("127.0.0.1", 0))) {
            assertThat(p.awaitRunning(Duration.ofSeconds(90))).isTrue();
            it.publish("E", TICKETS);
            // into the backlog: every ticket queued or done, the pace measured, the first burst long gone
            await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(200)).until(() -> {
                List<QueueView> views = p.metrics().tickets().views();
                return !views.isEmpty() && views.get(0).rates().measured() && p.metrics().classifiedCount() >= TICKETS * 2 / 5
                        && views.get(0).size() + p.metrics().classifiedCount() >= TICKETS - 60;
            });
            QueueView view = p.metrics().tickets().views().get(0);
            Map<Integer, String> byPosition = new HashMap<>();
            for (int i = 0; i < TICKETS; i++) {
                String key = "t" + i % 3 + ":E-" + i; // the key of ItSupport.publish's ticket E-i
                view.place(key).ifPresent(place -> byPosition.put(place.position(), key));
            }
            Map<String, long[]> asked = new HashMap<>(); // id -> asked at, estimated done at
            for (int k = 0; k < PROBES; k++) {
                String id = byPosition.get((int) ((k + 0.5) * view.size() / PROBES));
                if (id == null) {
                    continue;
                }
                long at = System.currentTimeMillis();
                JsonNode answer = get(p, id);
                if ("pending".equals(answer.path("state").asText()) && answer.path("estimatedDoneAt").isTextual()) {
                    asked.put(id, new long[] {at, Instant.parse(answer.get("estimatedDoneAt").asText()).toEpochMilli()});
                }
            }
            assertThat(asked).as("tickets asked about while waiting").hasSizeGreaterThanOrEqualTo(PROBES - 1);

            List<Double> errors = new ArrayList<>();
            List<String> told = new ArrayList<>();
            for (Map.Entry<String, long[]> e : asked.entrySet()) {
                JsonNode done = await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250))
                        .until(() -> get(p, e.getKey()), a -> "classified".equals(a.path("state").asText()));
                long ended = Instant.parse(done.get("estimatedDoneAt").asText()).toEpochMilli();
                long[] a = e.getValue();
                errors.add(Math.abs(a[1] - ended) / (double) Math.max(1, ended - a[0]));
                told.add(String.format(java.util.Locale.ROOT, "%.1f s said, %.1f s real", (a[1] - a[0]) / 1000.0, (ended - a[0]) / 1000.0));
            }
            errors.sort(Double::compare);
            double median = errors.size() % 2 == 1 ? errors.get(errors.size() / 2)
                    : (errors.get(errors.size() / 2 - 1) + errors.get(errors.size() / 2)) / 2;
            System.out.printf(java.util.Locale.ROOT, "EtaShapeIT: median error %.1f %%: %s; pace %s, %d waiting%n", median * 100, told,
                    view.rates(), view.size());
            assertThat(median).as("median error over the time left, of " + errors + ": " + told + "; pace " + view.rates()
                    + ", " + view.size() + " waiting").isLessThanOrEqualTo(0.25);
        }
    }
}
