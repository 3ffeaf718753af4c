package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimDialect;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.KafkaBrokerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pipeline on a real broker against the simulator speaking a provider dialect: what the dialect
 * ITs share (every ticket classified once, nothing lost; topics, simulator and application id of
 * their own). One class per dialect, so that they run at once.
 */
@ExtendWith(KafkaBrokerExtension.class)
abstract class DialectItBase {

    static final String KEY = "sk-it-dialect-0123456789";
    static final String MODEL = "gpt-4o-mini";

    EmbeddedKafkaBroker broker;
    TopicNames topics;

    @BeforeEach
    void applyTopics() {
        broker = KafkaBrokerExtension.broker();
        topics = ItSupport.applyTopics(broker, KafkaBrokerExtension.uniqueName(getClass().getSimpleName()) + ".");
    }

    static ProviderSimulator sim(SimDialect dialect, long rpm, double burstSeconds) {
        return ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(rpm).tpm(1_000_000).burstSeconds(burstSeconds)
                .apiKeys(Set.of(KEY)).baseLatencyMs(20).dialect(dialect).build());
    }

    static RouteSettings route(String name, ProviderSimulator sim, Dialect dialect, List<String> fallback) {
        ModelSettings model = ModelSettings.of(URI.create(sim.baseUrl()), MODEL, Secret.of(KEY)).withDialect(dialect, null, null);
        // the route believes in far more than the simulator admits: only the provider's answers hold it back
        return new RouteSettings(name, model, QuotaSettings.ofDefaults().withRpm(6_000).withTpm(1_000_000), fallback, null, Prices.NONE,
                DailyLimits.NONE, 0, 0);
    }

    QuotaflowConfig config(String applicationId, RetrySettings retry, RouteSettings... routes) throws Exception {
        Map<String, RouteSettings> byName = new LinkedHashMap<>();
        for (RouteSettings r : routes) {
            byName.put(r.name(), r);
        }
        Routing routing = new Routing(byName, routes[0].name(), Map.of(), Map.of(), Map.of(), Duration.ZERO);
        DispatcherSettings settings = DispatcherSettings.of(routing, BatchSettings.ofDefaults().withMaxItems(2), retry,
                RecordLimits.ofDefaults(), topics);
        return new QuotaflowConfig(broker.bootstrapServers(), topics.prefix() + applicationId,
                io.quotaflow.testkit.TestDirs.temporary("qf-" + applicationId), -1, Map.of(), settings);
    }

    void awaitAll(OutcomeCounter counter, Set<String> ids) {
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
            counter.poll(Duration.ofMillis(100));
            return counter.classifiedIds().containsAll(ids);
        });
        ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);
        assertThat(counter.classifiedIds()).isEqualTo(ids);
        assertThat(counter.duplicates()).isZero();
        assertThat(counter.deadLettered()).isZero();
    }

    /**
     * The most 429s {@code admitted} calls meet when each 429 is waited out for as long as the provider says
     * (a refill): all calls out at once, one admitted per wait, the others refused once each. Waiting less
     * (the 1 s default cooldown against a 5 s refill) meets about five times as many.
     */
    static long waitedOut(long admitted) {
        return admitted * (admitted + 1) / 2;
    }
}
