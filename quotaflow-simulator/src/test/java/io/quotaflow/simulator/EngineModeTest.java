package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The simulator as a self-hosted engine: no rate limits, no rate-limit headers, latency beyond saturation, refusals beyond M. */
class EngineModeTest {

    private static final String BODY = "{\"model\":\"gpt-4o-mini\",\"max_tokens\":50,\"messages\":[{\"role\":\"user\","
            + "\"content\":\"[{\\\"id\\\":\\\"t1\\\",\\\"subject\\\":\\\"refund\\\",\\\"body\\\":\\\"charged twice\\\"}]\"}]}";

    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ProviderSimulator sim;

    @AfterEach
    void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    private ProviderSimulator start(EngineMode engine, long baseLatencyMs) {
        // rpm 1: an engine has no rate limits, so this limit must never bind
        sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(1).tpm(1_000_000).noLatency()
                .baseLatencyMs(baseLatencyMs).engine(engine).build());
        return sim;
    }

    private CompletableFuture<Timed> send() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/chat/completions"))
                .header("authorization", "Bearer sk-engine").header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
        long start = System.nanoTime();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> new Timed(r, (System.nanoTime() - start) / 1_000_000));
    }

    private record Timed(HttpResponse<String> response, long ms) {
        boolean rateLimitHeaders() {
            return response.headers().map().keySet().stream().anyMatch(n -> n.toLowerCase().startsWith("x-ratelimit-"));
        }
    }

    private List<Timed> concurrently(int n) {
        List<CompletableFuture<Timed>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(send());
        }
        return calls.stream().map(CompletableFuture::join).toList();
    }

    @Test
    void shouldAnswerWithoutRateLimitsOrTheirHeaders() throws Exception {
        start(EngineMode.of(2, 4), 0);
        for (int i = 0; i < 5; i++) {
            Timed t = send().join();
            assertThat(t.response().statusCode()).isEqualTo(200);
            assertThat(t.rateLimitHeaders()).isFalse();
            assertThat(mapper.readTree(t.response().body()).path("choices").path(0).path("message").path("content").asText())
                    .contains("t1");
        }
        assertThat(sim.stats().requestsWithStatus(429)).isZero();
    }

    @Test
    void shouldStretchLatencyBeyondSaturation() throws Exception {
        // the decision without HTTP: the latency each call gets while 1..6 run, and the calls stop running once answered
        SimulatorConfig config = SimulatorConfig.builder().apiKeys(java.util.Set.of("sk-engine")).noLatency().baseLatencyMs(300)
                .engine(EngineMode.of(2, 8)).build();
        SimClock clock = SimClock.anchored(() -> 1_000_000_000L, 1_700_000_000_000L);
        ChatCompletions chat = new ChatCompletions(config, clock, clock.nanos(), Faults::none, new StatsRecorder(config, clock),
                new java.util.Random(1));
        List<Reply.Later> six = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            six.add((Reply.Later) chat.handle(BODY.getBytes(java.nio.charset.StandardCharsets.UTF_8), "Bearer sk-engine"));
        }
        assertThat(six.stream().map(Reply.Later::delayMs).toList()).containsExactly(300L, 300L, 450L, 600L, 750L, 900L);
        assertThat(six).allSatisfy(l -> assertThat(l.headers().keySet()).noneMatch(n -> n.startsWith("x-ratelimit")));
        six.forEach(Reply.Later::finish);
        assertThat(chat.engine().orElseThrow().running()).isZero();
        assertThat(chat.engine().orElseThrow().peak()).isEqualTo(6);
        Reply.Later alone = (Reply.Later) chat.handle(BODY.getBytes(java.nio.charset.StandardCharsets.UTF_8), "Bearer sk-engine");
        assertThat(alone.delayMs()).isEqualTo(300L);
    }

    @Test
    void shouldStopRunningACallOnceItIsAnsweredOverHttp() {
        start(EngineMode.of(2, 8), 100);
        assertThat(concurrently(3)).allSatisfy(t -> assertThat(t.response().statusCode()).isEqualTo(200));
        assertThat(sim.enginePeak().getAsInt()).isBetween(1, 3);
        assertThat(sim.engineRunning()).hasValue(0);
    }

    @Test
    void shouldRefuseBeyondMaxRunningWithAnOverloadWithoutHeaders() throws Exception {
        start(EngineMode.of(2, 4), 400);
        List<Timed> seven = concurrently(7);
        List<Timed> refused = seven.stream().filter(t -> t.response().statusCode() == 429).toList();
        assertThat(refused).hasSize(3);
        for (Timed t : refused) {
            assertThat(t.rateLimitHeaders()).isFalse();
            assertThat(t.response().headers().firstValue("retry-after")).isEmpty();
            JsonNode body = mapper.readTree(t.response().body());
            assertThat(body.path("error").asText()).isEqualTo("Model is overloaded");
            assertThat(body.path("error_type").asText()).isEqualTo("overloaded");
        }
        long slowestAnswer = seven.stream().filter(t -> t.response().statusCode() == 200).mapToLong(Timed::ms).max().orElseThrow();
        assertThat(refused).allSatisfy(t -> assertThat(t.ms()).isLessThan(slowestAnswer));
        assertThat(sim.stats().faultsInjected("overloaded")).isEqualTo(3);
        assertThat(sim.engineRefusals()).hasSize(3);
        assertThat(sim.engineCalls()).hasSize(4).allSatisfy(c -> assertThat(c.running()).isBetween(1, 4));
        // once they are answered, the engine takes calls again
        assertThat(send().join().response().statusCode()).isEqualTo(200);
    }

    @Test
    void shouldRefuseWithA503WhenSoConfigured() {
        start(new EngineMode(1, 1, 503), 300);
        List<Timed> two = concurrently(2);
        assertThat(two.stream().map(t -> t.response().statusCode()).sorted().toList()).containsExactly(200, 503);
    }

    @Test
    void shouldParseAndCheckItsShape() {
        assertThat(EngineMode.parse("8/128")).isEqualTo(EngineMode.of(8, 128));
        assertThat(EngineMode.parse("8/128/503")).isEqualTo(new EngineMode(8, 128, 503));
        assertThat(EngineMode.parse("8/128/503").label()).isEqualTo("8/128/503");
        assertThat(EngineMode.of(8, 128).slowdown(4)).isEqualTo(1.0);
        assertThat(EngineMode.of(8, 128).slowdown(16)).isEqualTo(2.0);
        assertThatThrownBy(() -> EngineMode.of(8, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EngineMode(8, 16, 500)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EngineMode.parse("eight")).isInstanceOf(IllegalArgumentException.class);
    }
}
