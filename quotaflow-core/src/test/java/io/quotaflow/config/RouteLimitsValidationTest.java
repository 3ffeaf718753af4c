package io.quotaflow.config;

import io.quotaflow.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The daily and input/output limits of a route: what is refused, and that routes of one quota share them. */
class RouteLimitsValidationTest {

    private static RouteSettings route(String name, DailyLimits daily, int inputTpm, int outputTpm) {
        return new RouteSettings(name, Fixtures.model(), QuotaSettings.ofDefaults(), List.of(), null, Prices.NONE, daily, inputTpm,
                outputTpm);
    }

    private static Routing routing(RouteSettings... routes) {
        Map<String, RouteSettings> byName = new LinkedHashMap<>();
        for (RouteSettings r : routes) {
            byName.put(r.name(), r);
        }
        return new Routing(byName, routes[0].name(), Map.of(), Map.of(), Map.of(), Duration.ZERO);
    }

    @Test
    void shouldRefuseDailyLimitsOutOfRange() {
        assertThatThrownBy(() -> new DailyLimits(-1, 0, 0)).hasMessageContaining("rpd must be >= 0");
        assertThatThrownBy(() -> new DailyLimits(0, -5, 0)).hasMessageContaining("tpd must be >= 0");
        assertThatThrownBy(() -> new DailyLimits(10, 0, 24)).hasMessageContaining("daily-reset-hour-utc must be in [0, 23]");
        assertThat(new DailyLimits(0, 0, 7).configured()).isFalse();
        assertThat(new DailyLimits(0, 1, 7).configured()).isTrue();
    }

    @Test
    void shouldRefuseNegativeInputAndOutputLimitsNamingTheRoute() {
        assertThatThrownBy(() -> route("primary", DailyLimits.NONE, -1, 0)).hasMessageContaining("route.primary.input-tpm");
        assertThatThrownBy(() -> route("primary", DailyLimits.NONE, 0, -1)).hasMessageContaining("route.primary.output-tpm");
    }

    @Test
    void shouldRefuseRoutesOfOneQuotaWithDifferentDailyOrInputOutputLimits() {
        assertThatThrownBy(() -> routing(route("a", new DailyLimits(100, 0, 0), 0, 0), route("b", new DailyLimits(200, 0, 0), 0, 0)))
                .hasMessageContaining("routes a and b share a base URL, key and model").hasMessageContaining("rpd");
        assertThatThrownBy(() -> routing(route("a", new DailyLimits(100, 0, 0), 0, 0), route("b", new DailyLimits(100, 0, 7), 0, 0)))
                .hasMessageContaining("daily-reset-hour-utc");
        assertThatThrownBy(() -> routing(route("a", DailyLimits.NONE, 1_000, 0), route("b", DailyLimits.NONE, 2_000, 0)))
                .hasMessageContaining("input-tpm");
        Routing same = routing(route("a", new DailyLimits(100, 5_000, 7), 1_000, 500), route("b", new DailyLimits(100, 5_000, 7), 1_000, 500));
        assertThat(same.routesOf(same.scopes().get(0))).hasSize(2);
    }
}
