package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A tenant's own cap on a real broker and the provider simulator: tenant t0 (its tickets are the
 * interactive ones) may have 60 tickets a minute; of its 80, the rest wait, held, while the other
 * tenants' tickets go; then every ticket is classified once, none rejected or dead-lettered.
 */
@Order(9) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class TenantCapIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-tenant-cap", 1_000, 1_000_000, 20);

    private final HttpClient http = HttpClient.newHttpClient();

    private static long ofTenant(OutcomeCounter counter, int tenant) {
        return counter.classifiedIds().stream().filter(id -> Integer.parseInt(id.substring(id.indexOf('-') + 1)) % 3 == tenant).count();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldHoldACappedTenantsTicketsUntilItsRateAllowsAndClassifyEachOnce() throws Exception {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(1_000).withTpm(1_000_000);
        QuotaflowConfig base = it.config("quotaflow-tenant-cap", quota, RetrySettings.ofDefaults()).withHttp("127.0.0.1", 0);
        QuotaflowConfig config = new QuotaflowConfig(base.bootstrapServers(), base.applicationId(), base.stateDir(), base.httpPort(),
                base.kafka(), base.dispatcher().withTenants(TenantSettings.builder().rpm("t0", 60).build()), base.instanceId(),
                base.httpBind());

        it.publish("cap", 240);
        try (Pipeline pipeline = Pipeline.start(config);
             OutcomeCounter counter = it.counter()) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            long start = System.currentTimeMillis();
            AtomicBoolean sawHeld = new AtomicBoolean();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                JsonNode tenants = status(pipeline.httpPort());
                if (tenants.path("t0").path("capped").asBoolean()) {
                    sawHeld.set(true);
                }
                return ofTenant(counter, 1) + ofTenant(counter, 2) >= 160;
            });
            long elapsedS = (System.currentTimeMillis() - start) / 1000;
            long t0 = ofTenant(counter, 0);
            assertThat(t0).as("t0 got its minute's 60 and about one a second since, after %d s", elapsedS)
                    .isLessThanOrEqualTo(60 + elapsedS + 2).isLessThan(80);

            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                if (status(pipeline.httpPort()).path("t0").path("capped").asBoolean()) {
                    sawHeld.set(true);
                }
                return counter.classified() >= 240;
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(1), counter);
            assertThat(sawHeld).as("/status said the cap held t0").isTrue();
            assertThat(counter.classified()).isEqualTo(240);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            assertThat(it.sim.stats().http429()).isZero();
            assertThat(System.currentTimeMillis() - start).as("the last 20 of t0 waited for its bucket").isGreaterThan(15_000);
        }
    }

    private JsonNode status(int port) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode scopes = Json.MAPPER.readTree(r.body()).path("scopes");
        return scopes.size() == 0 ? Json.MAPPER.createObjectNode() : scopes.get(0).path("tenants");
    }
}
