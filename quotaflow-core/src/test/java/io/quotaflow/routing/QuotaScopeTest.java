package io.quotaflow.routing;

import io.quotaflow.settings.QuotaScope;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

class QuotaScopeTest {

    private static String scope(String url, String key) {
        return QuotaScope.of(ModelSettings.of(URI.create(url), "gpt-4o-mini", Secret.of(key)));
    }

    @Test
    void shouldNameOneQuotaForEverySpellingOfOneBaseUrl() {
        String plain = scope("https://api.example.com/v1", "sk-1");
        assertThat(scope("https://API.Example.COM/v1", "sk-1")).isEqualTo(plain);
        assertThat(scope("https://api.example.com:443/v1", "sk-1")).isEqualTo(plain);
        assertThat(scope("https://api.example.com/v1/", "sk-1")).isEqualTo(plain);
        assertThat(scope("http://LOCALHOST:80/v1", "sk-1")).isEqualTo(scope("http://localhost/v1", "sk-1"));
    }

    @Test
    void shouldTellApartWhatMayBeAnotherQuota() {
        String plain = scope("https://api.example.com/v1", "sk-1");
        assertThat(scope("https://api.example.com/v1", "sk-2")).isNotEqualTo(plain);
        assertThat(scope("https://api.example.com:8443/v1", "sk-1")).isNotEqualTo(plain);
        assertThat(scope("http://api.example.com/v1", "sk-1")).isNotEqualTo(plain);
        assertThat(scope("https://api.example.com/v2", "sk-1")).isNotEqualTo(plain);
    }

    @Test
    void shouldKeepTheKeyOutOfTheName() {
        assertThat(scope("https://api.example.com/v1", "sk-secret-123")).startsWith("scope-").doesNotContain("secret");
    }
}
