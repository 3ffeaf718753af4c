package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.testkit.PrometheusText;
import io.quotaflow.testkit.Promtool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What one instance's {@code /metrics} costs Prometheus after a few hundred tickets on the bundled
 * partition counts: at most {@value #BUDGET_BYTES} bytes uncompressed, gzip when asked and only then,
 * {@code quotaflow_build_info}, no NaN, and promtool clean on the whole page (when installed).
 */
class MetricsBudgetIT {

    /** The most one instance's page may weigh, uncompressed (docs/operations.md, "Metrics"). */
    static final int BUDGET_BYTES = 150 * 1024;
    private static final int TICKETS = 500;

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-metrics-budget", 6_000, 5_000_000, 5).withBundledPartitions();

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldServeAPagePrometheusCanAffordUnderLoad() throws Exception {
        try (Pipeline pipeline = Pipeline.start(it.config("quotaflow-metrics-budget",
                QuotaSettings.ofDefaults().withRpm(6_000).withTpm(5_000_000), RetrySettings.ofDefaults()).withHttp("127.0.0.1", 0));
             OutcomeCounter counter = it.counter()) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(90))).isTrue();
            int port = pipeline.httpPort();
            Set<String> ids = it.publish("BUDGET", TICKETS);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(ids);
            });
            // no Micrometer Kafka binder is bound (metrics.kafka=off reads nothing; curated reads Kafka's metrics at scrape
            // time), so the page of a running instance is the page once its tickets are answered and it has gone quiet
            ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);

            HttpResponse<byte[]> plain = get(port, null);
            String page = new String(plain.body(), StandardCharsets.UTF_8);
            PrometheusText text = PrometheusText.parse(page);
            long kafkaLines = page.lines().filter(l -> l.startsWith("kafka_")).count();
            long nanLines = page.lines().filter(l -> !l.startsWith("#") && l.endsWith(" NaN")).count();
            HttpResponse<byte[]> zipped = get(port, "gzip");
            System.out.printf("MetricsBudgetIT: /metrics after %d tickets: %d bytes, %d bytes gzipped, %d families, %d kafka_* lines, "
                    + "%d NaN values%n", TICKETS, plain.body().length, zipped.body().length, text.families().size(), kafkaLines, nanLines);

            assertThat(plain.statusCode()).isEqualTo(200);
            assertThat(plain.body().length).as("bytes of one scrape").isLessThanOrEqualTo(BUDGET_BYTES);
            assertThat(plain.headers().firstValue("Content-Encoding")).as("not asked for gzip").isEmpty();
            assertThat(nanLines).as("NaN values").isZero();
            assertThat(kafkaLines).as("Kafka client metrics are off by default").isZero();
            assertThat(page).doesNotContainPattern("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
            assertThat(text.samples("quotaflow_build_info")).singleElement().satisfies(s -> {
                assertThat(s.value()).isEqualTo(1.0);
                assertThat(s.labels().get("version")).isNotBlank();
            });
            assertThat(text.samples("quotaflow_consumer_lag_records")).as("the lag the alert reads").isNotEmpty();

            assertThat(zipped.statusCode()).isEqualTo(200);
            assertThat(zipped.headers().firstValue("Content-Encoding")).contains("gzip");
            assertThat(zipped.headers().firstValue("Vary")).contains("Accept-Encoding");
            String unzipped = gunzip(zipped.body());
            assertThat(PrometheusText.parse(unzipped).families()).isEqualTo(text.families());
            assertThat(zipped.body().length).isLessThan(plain.body().length / 4);

            if (Promtool.installed()) {
                Promtool.Result result = Promtool.checkMetrics(page);
                assertThat(result.exitCode()).as("promtool check metrics on the whole page:\n" + result.output()).isZero();
                assertThat(result.output().strip()).as("promtool check metrics on the whole page").isEmpty();
                System.out.println("MetricsBudgetIT: promtool check metrics: clean on the whole page");
            } else {
                System.out.println("MetricsBudgetIT: promtool is not on the PATH; /metrics not linted");
            }
        }
    }

    private HttpResponse<byte[]> get(int port, String acceptEncoding) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).GET();
        if (acceptEncoding != null) {
            request.header("Accept-Encoding", acceptEncoding);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String gunzip(byte[] body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
