package io.quotaflow.testing;

import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.DispatcherSettings;

import java.net.URI;
import java.nio.charset.StandardCharsets;

/** Shared test values. */
public final class Fixtures {

    public static final String API_KEY = "sk-test-0123456789abcdef";

    private Fixtures() {
    }

    public static ModelSettings model() {
        return ModelSettings.of(URI.create("http://localhost:1/v1"), "gpt-4o-mini", Secret.of(API_KEY));
    }

    /**
     * Generous limits so only the test's own constraint binds. The tenant is the body's ({@code tenants.from=body}):
     * these tests key tickets by id whatever their tenant; TenantSourceTopologyTest covers the other sources.
     */
    public static DispatcherSettings settings() {
        return DispatcherSettings.builder(model(), QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000),
                BatchSettings.ofDefaults(), RetrySettings.ofDefaults())
                .tenants(io.quotaflow.settings.TenantSettings.NONE.withAccess(io.quotaflow.settings.TenantAccess.builder()
                        .from(io.quotaflow.settings.TenantAccess.From.BODY).build())).build();
    }

    public static String ticketJson(String id, String priority, String tenant, String body) {
        return "{\"id\":\"" + id + "\",\"subject\":\"Subject " + id + "\",\"body\":\"" + body + "\",\"tenant\":\"" + tenant
                + "\"" + (priority == null ? "" : ",\"priority\":\"" + priority + "\"") + "}";
    }

    public static byte[] ticket(String id, String tenant, String body) {
        return ticketJson(id, null, tenant, body).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] ticket(String id) {
        return ticket(id, "default", "My invoice is wrong, please help.");
    }

    /** A route named {@code name} at {@code http://<name>/v1} (its own scope), with generous limits and {@code contextTokens}. */
    public static io.quotaflow.settings.RouteSettings route(String name, int contextTokens, java.util.List<String> fallback,
                                                          String contextFallback) {
        ModelSettings model = ModelSettings.of(URI.create("http://" + name + ".test/v1"), "gpt-4o-mini", Secret.of(API_KEY))
                .withContextTokens(contextTokens);
        return new io.quotaflow.settings.RouteSettings(name, model, QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000),
                fallback, contextFallback, null, null, 0, 0);
    }

    /** Settings over {@code routes}, the first the default, with {@code maxWait} per priority and the cache off. */
    public static DispatcherSettings routed(java.util.Map<io.quotaflow.records.Priority, java.time.Duration> maxWait,
                                            io.quotaflow.settings.RouteSettings... routes) {
        java.util.Map<String, io.quotaflow.settings.RouteSettings> byName = new java.util.LinkedHashMap<>();
        for (io.quotaflow.settings.RouteSettings r : routes) {
            byName.put(r.name(), r);
        }
        io.quotaflow.settings.Routing routing = new io.quotaflow.settings.Routing(byName, routes[0].name(), java.util.Map.of(),
                java.util.Map.of(), maxWait, java.time.Duration.ZERO);
        return DispatcherSettings.of(routing, BatchSettings.ofDefaults(), RetrySettings.ofDefaults(),
                io.quotaflow.settings.RecordLimits.ofDefaults(), io.quotaflow.settings.TopicNames.DEFAULT);
    }
}
