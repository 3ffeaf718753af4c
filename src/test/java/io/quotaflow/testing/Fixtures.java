package io.quotaflow.testing;

import io.quotaflow.config.BatchSettings;
import io.quotaflow.config.ModelSettings;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.config.RetrySettings;
import io.quotaflow.config.Secret;
import io.quotaflow.config.DispatcherSettings;

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

    /** Generous limits so only the test's own constraint binds. */
    public static DispatcherSettings settings() {
        return new DispatcherSettings(model(), QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000),
                BatchSettings.ofDefaults(), RetrySettings.ofDefaults());
    }

    public static String ticketJson(String id, String priority, String tenant, String body) {
        return "{\"id\":\"" + id + "\",\"subject\":\"Subject " + id + "\",\"body\":\"" + body + "\",\"tenant\":\"" + tenant
                + "\"" + (priority == null ? "" : ",\"priority\":\"" + priority + "\"") + "}";
    }

    public static byte[] ticket(String id, String tenant, String body) {
        return ticketJson(id, null, tenant, body).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] ticket(String id) {
        return ticket(id, "acme", "My invoice is wrong, please help.");
    }
}
