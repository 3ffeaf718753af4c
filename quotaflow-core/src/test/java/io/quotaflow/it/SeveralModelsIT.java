package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.simulator.ModelStats;
import io.quotaflow.simulator.ModelSpec;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The pipeline against a simulator serving two models on one port: taking the other model down
 * leaves the pipeline's model alone; taking the pipeline's own model down for a while and bringing
 * it back still ends with every ticket classified exactly once; and {@code quotaflow_cost_usd_total}
 * equals the simulator's usage of that model at the route's prices.
 */
@Order(3) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class SeveralModelsIT {

    private static final String OTHER = "gpt-4o";

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-models", 2_000, 1_000_000, 20,
            b -> b.serve(ModelSpec.of(OTHER).withLimits(60, 10_000).withContextTokens(8_192)));

    /**
     * {@code settings} with {@code prices} on every route without prices of its own: the benchmark's
     * {@code AssumedPrices}, which lives in quotaflow-bench (out of core's reach and of the production jar).
     */
    private static DispatcherSettings priced(DispatcherSettings settings, Prices prices) {
        Routing routing = settings.routing();
        java.util.Map<String, RouteSettings> routes = new java.util.LinkedHashMap<>();
        routing.routes().forEach((name, r) -> routes.put(name, r.prices().configured() ? r
                : new RouteSettings(r.name(), r.model(), r.quota(), r.fallback(), r.contextFallback(), prices, r.daily(),
                        r.inputTpm(), r.outputTpm(), r.batchApi())));
        return settings.withRouting(new Routing(routes, routing.defaultRoute(), routing.byPriority(), routing.byTenant(),
                routing.maxWait(), routing.cacheTtl(), routing.cacheShared()));
    }

    private int callOther() throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(it.sim.baseUrl() + "/chat/completions"))
                .header("Authorization", "Bearer " + it.key).POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"" + OTHER + "\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldServeThePipelinesModelWhileAnotherIsDownAndCountItsCost() throws Exception {
        RetrySettings retry = RetrySettings.ofDefaults().withMaxAge(Duration.ofMinutes(2));
        QuotaflowConfig plain = it.config("quotaflow-models", QuotaSettings.ofDefaults().withRpm(2_000).withTpm(1_000_000), retry);
        QuotaflowConfig config = new QuotaflowConfig(plain.bootstrapServers(), plain.applicationId(), plain.stateDir(),
                plain.httpPort(), plain.kafka(), priced(plain.dispatcher(), Prices.ASSUMED_GPT_4O_MINI),
                plain.instanceId(), plain.httpBind());
        it.sim.setDown(OTHER, true);
        try (Pipeline pipeline = Pipeline.start(config);
             OutcomeCounter counter = it.counter()) {
            Set<String> first = it.publish("UP", 150);
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(first);
            });
            assertThat(callOther()).as("the other model is down").isEqualTo(503);

            // the pipeline's own model goes down for a while, then comes back
            it.sim.setDown("gpt-4o-mini", 503);
            Set<String> second = it.publish("DOWN", 60);
            await().atMost(Duration.ofSeconds(30)).until(() -> it.sim.stats().model("gpt-4o-mini").downAnswers() > 0);
            ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);
            assertThat(counter.classifiedIds()).as("nothing is classified while the model is down").doesNotContainAnyElementsOf(second);
            it.sim.setDown("gpt-4o-mini", false);
            it.sim.setDown(OTHER, false);
            assertThat(callOther()).as("and back up").isEqualTo(200);
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(second);
            });
            counter.poll(Duration.ofMillis(500));

            assertThat(counter.classified()).isEqualTo(210);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            ModelStats mine = it.sim.stats().model("gpt-4o-mini");
            ModelStats other = it.sim.stats().model(OTHER);
            assertThat(mine.http429()).isZero();
            assertThat(other.requests()).as("only this test's two direct calls reached the other model").isEqualTo(2);
            assertThat(other.downAnswers()).isEqualTo(1);
            double expected = Prices.ASSUMED_GPT_4O_MINI.cost(mine.promptTokens(), mine.completionTokens());
            assertThat(expected).isPositive();
            assertThat(pipeline.metrics().costUsd()).isCloseTo(expected, within(1e-9));
            System.out.printf("SeveralModelsIT: %d classified, %d calls to gpt-4o-mini (%d answered 503 while down, 0 × 429), "
                    + "%d to %s; cost $%.6f = %d prompt + %d completion tokens at %s%n", counter.classified(), mine.requests(),
                    mine.downAnswers(), other.requests(), OTHER, pipeline.metrics().costUsd(), mine.promptTokens(),
                    mine.completionTokens(), Prices.ASSUMED_GPT_4O_MINI.describe());
        }
    }
}
