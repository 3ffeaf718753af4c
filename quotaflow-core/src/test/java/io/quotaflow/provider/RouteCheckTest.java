package io.quotaflow.provider;

import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.testkit.ManualTime;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpHeaders;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The verdicts of a route's check, from what GET /models and the 1-token call answered. */
class RouteCheckTest {

    private static final String KEY = "sk-route-check-secret-0123456789";
    private static final String BASE = "https://api.example.com/v1";
    private static final ManualTime CLOCK = ManualTime.at(Instant.parse("2026-01-01T00:00:00Z"));

    private static RouteSettings route(String base, int rpm, int tpm) {
        return RouteSettings.of("default", ModelSettings.of(URI.create(base), "gpt-4o-mini", Secret.of(KEY)),
                QuotaSettings.ofDefaults().withRpm(rpm).withTpm(tpm));
    }

    private static ProviderProbe.Exchange answer(String url, int status, Map<String, List<String>> headers, String body) {
        return new ProviderProbe.Exchange(url, status, HttpHeaders.of(headers, (a, b) -> true), body, null, 7);
    }

    private static final String LIST = "{\"object\":\"list\",\"data\":[{\"id\":\"gpt-4o-mini\",\"context_length\":8192},{\"id\":\"other\"}]}";

    private static List<String> texts(ProbeReport r) {
        return r.lines().stream().map(ProbeLine::text).toList();
    }

    @Test
    void shouldFailAConfiguredContextWindowLargerThanTheProvidersYetLeaveTheRouteServing() {
        RouteCheck check = new RouteCheck(route(BASE, 500, 100_000), false, CLOCK);
        check.models(answer(BASE + "/models", 200, Map.of(), LIST));

        ProbeReport r = check.finish();

        assertThat(texts(r)).containsExactly(
                "ok   route default: reachable: " + BASE + " answered GET /models (200) in 7 ms",
                "ok   route default: key: accepted (GET /models 200)",
                "ok   route default: model: gpt-4o-mini is listed by GET /models",
                "FAIL route default: context window: the provider says 8192 tokens; the configured 128000 is larger: "
                        + "set llm.context-tokens (or route.default.context-tokens)=8192",
                "skip route default: rate limits: not checked: only a call's answer carries them (--no-call)");
        assertThat(r.state()).isEqualTo(RouteState.OK);
    }

    @Test
    void shouldCompareTheAnnouncedLimitsWithTheConfiguredOnes() {
        RouteCheck check = new RouteCheck(route(BASE, 500, 100_000), true, CLOCK);
        check.models(answer(BASE + "/models", 200, Map.of(), "{\"data\":[{\"id\":\"gpt-4o-mini\"}]}"));
        check.chat(answer(BASE + "/chat/completions", 200, Map.of("x-ratelimit-limit-requests", List.of("100"),
                "x-ratelimit-limit-tokens", List.of("200000"), "x-ratelimit-remaining-requests", List.of("99")), "{}"));

        ProbeReport r = check.finish();

        assertThat(texts(r)).contains("ok   route default: model: gpt-4o-mini answered a 1-token call in 7 ms",
                "FAIL route default: rate limits: 3 rate-limit headers seen (x-ratelimit-*); "
                        + "limits announced: requests 100, tokens 200000; configured rpm 500 is above the announced 100: "
                        + "set quota.rpm (or route.default.rpm)=100");
    }

    @Test
    void shouldSayThereAreNoRateLimitHeadersFromASelfHostedServer() {
        RouteCheck check = new RouteCheck(route("http://127.0.0.1:8000/v1", 500, 100_000), true, CLOCK);
        check.models(answer("http://127.0.0.1:8000/v1/models", 404, Map.of(), "{\"detail\":\"Not Found\"}"));
        check.chat(answer("http://127.0.0.1:8000/v1/chat/completions", 200, Map.of(), "{}"));

        ProbeReport r = check.finish();

        assertThat(r.failed()).isFalse();
        assertThat(texts(r)).contains("ok   route default: key: accepted (a 1-token call answered)",
                "ok   route default: rate limits: no rate-limit headers: a self-hosted engine? Its limit is how many calls run at once, "
                        + "not a rate: configure it as one, quota.rpm (or route.default.rpm)=none, quota.tpm (or route.default.tpm)=none, "
                        + "quota.max-in-flight=auto; meanwhile quotaflow keeps to the configured rpm 500, tpm 100000 and, once the calls take "
                        + "longer the more are in flight, finds the engine's knee from their latency");
    }

    @Test
    void shouldSayARouteConfiguredAsAnEngineFollowsItsLatency() {
        RouteCheck check = new RouteCheck(route("http://127.0.0.1:8000/v1", QuotaSettings.NONE, QuotaSettings.NONE), true, CLOCK);
        check.models(answer("http://127.0.0.1:8000/v1/models", 404, Map.of(), "{\"detail\":\"Not Found\"}"));
        check.chat(answer("http://127.0.0.1:8000/v1/chat/completions", 200, Map.of(), "{}"));

        assertThat(texts(check.finish())).contains("ok   route default: rate limits: no rate-limit headers, as a self-hosted engine's; "
                + "configured rpm none, tpm none, max-in-flight auto: the in-flight limit follows the calls' latency (the engine's knee)");
    }

    @Test
    void shouldSkipWhatCannotBeToldWithoutACall() {
        RouteCheck check = new RouteCheck(route(BASE, 500, 100_000), false, CLOCK);
        check.models(answer(BASE + "/models", 404, Map.of(), "{}"));

        ProbeReport r = check.finish();

        assertThat(r.failed()).isFalse();
        assertThat(r.state()).isEqualTo(RouteState.OK);
        assertThat(texts(r)).contains("skip route default: key: not verified: GET /models answered 404 (this provider does not list "
                + "its models); without --no-call the check makes one tiny call");
    }

    @Test
    void shouldEndOnASpentQuotaARedirectOrARefusedKeyWithoutPrintingTheKey() {
        RouteCheck quota = new RouteCheck(route(BASE, 500, 100_000), true, CLOCK);
        quota.models(answer(BASE + "/models", 200, Map.of(), LIST));
        quota.chat(answer(BASE + "/chat/completions", 429, Map.of(), "{\"error\":{\"message\":\"You exceeded your current quota\","
                + "\"code\":\"insufficient_quota\"}}"));
        RouteCheck moved = new RouteCheck(route(BASE, 500, 100_000), true, CLOCK);
        moved.models(answer(BASE + "/models", 301, Map.of("location", List.of("https://api.example.org/v1/models")), ""));
        RouteCheck refused = new RouteCheck(route(BASE, 500, 100_000), true, CLOCK);
        refused.models(answer(BASE + "/models", 401, Map.of(), "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\"}}"));

        ProbeReport q = quota.finish();
        ProbeReport m = moved.finish();
        ProbeReport k = refused.finish();

        assertThat(q.state().text()).isEqualTo("quota exhausted (429)");
        assertThat(texts(q)).last().asString().startsWith("FAIL route default: quota: quota exhausted (429): You exceeded");
        assertThat(moved.wantsCall()).as("a failure ends the check").isFalse();
        assertThat(m.state().text()).isEqualTo("base URL redirects (301)");
        assertThat(texts(m)).containsExactly("FAIL route default: base URL: " + BASE + "/models redirects (301) to "
                + "https://api.example.org/v1/models: set the base URL it names (quotaflow never follows a redirect with the key)");
        assertThat(k.state()).isEqualTo(RouteState.keyRefused(401));
        assertThat(String.join("\n", texts(k))).contains("FAIL route default: key: key refused (401): Incorrect API key provided")
                .doesNotContain(KEY).doesNotContain("0123456789");
    }
}
