package io.quotaflow.metrics;

import io.quotaflow.testkit.ManualTime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.quota.RateLimitInfo;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** {@code quotaflow_cost_usd_total{route}}: the provider's usage of each answered call at the route's prices. */
class CostMeterTest {

    private static final Prices MINI = new Prices(0.15, 0.60);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static RouteSettings route(String name, String model, String key, Prices prices) {
        RouteSettings plain = RouteSettings.of(name, ModelSettings.of(URI.create("http://localhost:8089/v1"), model, Secret.of(key)),
                QuotaSettings.ofDefaults());
        return new RouteSettings(plain.name(), plain.model(), plain.quota(), List.of(), null, prices, null, 0, 0);
    }

    private static DispatcherSettings settings(RouteSettings... routes) {
        Map<String, RouteSettings> byName = new LinkedHashMap<>();
        for (RouteSettings r : routes) {
            byName.put(r.name(), r);
        }
        Routing routing = new Routing(byName, routes[0].name(), Map.of(), Map.of(), Map.of(), Duration.ofHours(24));
        return DispatcherSettings.of(routing, BatchSettings.ofDefaults(), RetrySettings.ofDefaults(), RecordLimits.ofDefaults(),
                TopicNames.DEFAULT);
    }

    private static ModelOutcome.Answered answered(long prompt, long completion) {
        return new ModelOutcome.Answered(Map.of(), Map.of(), "stop", prompt, completion, RateLimitInfo.EMPTY, 300);
    }

    private double cost(String route) {
        return registry.get("quotaflow.cost.usd").tag("route", route).counter().count();
    }

    @Test
    void shouldCountEachAnsweredCallsUsageAtItsRoutesPrices() {
        RouteSettings primary = route("primary", "gpt-4o-mini", "sk-a", MINI);
        RouteSettings backup = route("backup", "gpt-4o", "sk-b", new Prices(2.50, 10.00));
        PipelineMetrics metrics = new PipelineMetrics(registry, MeteredRoute.all(settings(primary, backup)), new ManualTime(0));

        metrics.completed(primary.scope(), answered(2_000_000, 500_000), 10);
        metrics.completed(primary.scope(), answered(1_000, 200), 1);
        metrics.completed(backup.scope(), answered(40_000, 4_000), 2);

        // 2 M × 0.15 + 0.5 M × 0.60 = 0.60; 1 000 × 0.15 / 1 M + 200 × 0.60 / 1 M = 0.00027
        assertThat(cost("primary")).isCloseTo(0.60027, within(1e-12));
        // 40 000 × 2.50 / 1 M + 4 000 × 10 / 1 M = 0.14
        assertThat(cost("backup")).isCloseTo(0.14, within(1e-12));
        assertThat(metrics.costUsd()).isCloseTo(0.74027, within(1e-12));
        assertThat(metrics.pricesConfigured()).isTrue();
    }

    @Test
    void shouldCountNothingForRefusedCallsOrARouteWithoutPrices() {
        RouteSettings free = route("default", "gpt-4o-mini", "sk-a", Prices.NONE);
        PipelineMetrics metrics = new PipelineMetrics(registry, MeteredRoute.all(settings(free)), new ManualTime(0));

        metrics.completed(free.scope(), answered(10_000, 1_000), 1);
        metrics.completed(free.scope(), new ModelOutcome.RateLimited(Optional.of(Duration.ofSeconds(1)), "Rate limit reached",
                Optional.empty(), Optional.empty(), RateLimitInfo.EMPTY, 0), 1);

        assertThat(cost("default")).isZero();
        assertThat(metrics.costUsd()).isZero();
        assertThat(metrics.pricesConfigured()).isFalse();
    }

    @Test
    void shouldFeedAScopesEventsToItsFirstRouteWhenRoutesShareIt() {
        RouteSettings first = route("first", "gpt-4o-mini", "sk-a", MINI);
        RouteSettings second = route("second", "gpt-4o-mini", "sk-a", new Prices(1, 1));
        PipelineMetrics metrics = new PipelineMetrics(registry, MeteredRoute.all(settings(first, second)), new ManualTime(0));

        metrics.completed(first.scope(), answered(1_000_000, 0), 1);

        assertThat(first.scope()).isEqualTo(second.scope());
        assertThat(cost("first")).isCloseTo(0.15, within(1e-12));
        assertThat(cost("second")).as("registered, zero-valued").isZero();
        assertThat(MeteredRoute.all(settings(first, second))).extracting(MeteredRoute::name).containsExactly("first", "second");
    }
}
