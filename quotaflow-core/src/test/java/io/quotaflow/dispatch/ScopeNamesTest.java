package io.quotaflow.dispatch;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatcher's log lines (circuit, halt, 429) name a scope by its routes, never by its hash alone. */
class ScopeNamesTest {

    private static final ModelSettings MODEL = ModelSettings.of(URI.create("https://api.example.com/v1"), "gpt-4o-mini",
            Secret.of("sk-scope-names-0123456789"));

    @Test
    void shouldNameTheRouteOfAScope() {
        DispatcherSettings settings = DispatcherSettings.builder(MODEL, QuotaSettings.ofDefaults(), BatchSettings.ofDefaults(),
                RetrySettings.ofDefaults()).build();

        assertThat(ScopeDispatcher.who(settings, settings.scope())).isEqualTo("route default");
    }

    @Test
    void shouldNameEveryRouteSharingAScope() {
        Map<String, RouteSettings> routes = new LinkedHashMap<>();
        routes.put("fast", RouteSettings.of("fast", MODEL, QuotaSettings.ofDefaults()));
        routes.put("slow", new RouteSettings("slow", MODEL, QuotaSettings.ofDefaults(), java.util.List.of("fast"), null, null, null, 0, 0));
        DispatcherSettings settings = DispatcherSettings.builder(MODEL, QuotaSettings.ofDefaults(), BatchSettings.ofDefaults(),
                RetrySettings.ofDefaults()).build().withRouting(new Routing(routes, "fast", Map.of(), Map.of(), Map.of(), Duration.ZERO));
        String scope = routes.get("fast").scope();

        assertThat(ScopeDispatcher.who(settings, scope)).isEqualTo("routes fast, slow (scope " + scope + ")");
    }
}
