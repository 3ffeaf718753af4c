package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chat-completions decision without HTTP, on a manual clock: the outage windows, the buckets
 * and the answer's {@code created} all follow the one injected {@link SimClock}.
 */
class ChatCompletionsTest {

    private static final String KEY = "sk-test-decision";
    private static final String BEARER = "Bearer " + KEY;
    private static final long EPOCH_MS = 1_700_000_000_500L;

    private final ObjectMapper mapper = new ObjectMapper();
    private final AtomicLong nanos = new AtomicLong(42_000_000_000L);
    private final SimClock clock = SimClock.anchored(nanos::get, EPOCH_MS);
    private Faults faults = Faults.none();

    private ChatCompletions endpoint(SimulatorConfig.Builder builder) {
        SimulatorConfig config = builder.apiKeys(Set.of(KEY)).build();
        return new ChatCompletions(config, clock, clock.nanos(), () -> faults, new StatsRecorder(config, clock),
                new Random(config.seed()));
    }

    private byte[] body(int maxTokens) throws Exception {
        ObjectNode req = mapper.createObjectNode().put("model", "gpt-4o-mini").put("max_tokens", maxTokens);
        req.putArray("messages").addObject().put("role", "user")
                .put("content", "{\"tickets\":[{\"id\":\"t-1\",\"subject\":\"Refund\",\"body\":\"I was charged twice\"}]}");
        return mapper.writeValueAsBytes(req);
    }

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    private static int status(Reply reply) {
        return reply instanceof Reply.Now ? ((Reply.Now) reply).status() : 200;
    }

    @Test
    void shouldAnswerLaterWithTheConfiguredLatencyAndCreatedFromTheInjectedClock() throws Exception {
        ChatCompletions chat = endpoint(SimulatorConfig.builder().baseLatencyMs(150).perCompletionTokenMs(0).latencyJitter(0));
        advance(Duration.ofSeconds(10));

        Reply reply = chat.handle(body(100), BEARER);

        assertThat(reply).isInstanceOf(Reply.Later.class);
        Reply.Later later = (Reply.Later) reply;
        assertThat(later.delayMs()).isEqualTo(150);
        assertThat(later.headers()).containsEntry("openai-processing-ms", "150");
        JsonNode completion = mapper.readTree(later.body());
        assertThat(completion.path("created").asLong()).isEqualTo((EPOCH_MS + 10_000) / 1000);
        JsonNode content = mapper.readTree(completion.path("choices").path(0).path("message").path("content").asText());
        assertThat(content.path("results").path(0).path("id").asText()).isEqualTo("t-1");
        assertThat(completion.path("choices").path(0).path("finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void shouldAnswer503OnlyInsideAnOutageWindowOfTheInjectedClock() throws Exception {
        faults = Faults.builder().outageSeconds(10, 20).build();
        ChatCompletions chat = endpoint(SimulatorConfig.builder().noLatency());

        assertThat(status(chat.handle(body(10), BEARER))).isEqualTo(200);
        advance(Duration.ofSeconds(10));
        assertThat(status(chat.handle(body(10), BEARER))).isEqualTo(503);
        advance(Duration.ofMillis(9_999));
        assertThat(status(chat.handle(body(10), BEARER))).isEqualTo(503);
        advance(Duration.ofMillis(1));
        assertThat(status(chat.handle(body(10), BEARER))).isEqualTo(200);
    }

    @Test
    void shouldRateLimitUntilTheManualClockHasRefilledTheRequestBucket() throws Exception {
        // 60 RPM over a 1 s burst: one request of capacity, one more per second
        ChatCompletions chat = endpoint(SimulatorConfig.builder().noLatency().rpm(60).burstSeconds(1));
        assertThat(status(chat.handle(body(10), BEARER))).isEqualTo(200);

        Reply refused = chat.handle(body(10), BEARER);

        assertThat(status(refused)).isEqualTo(429);
        Reply.Now now = (Reply.Now) refused;
        assertThat(now.headers()).containsEntry("retry-after-ms", "1000").containsEntry("retry-after", "1")
                .containsEntry("x-ratelimit-remaining-requests", "0");
        assertThat(mapper.readTree(now.body()).path("error").path("type").asText()).isEqualTo("requests");
        advance(Duration.ofMillis(999));
        assertThat(status(chat.handle(body(10), BEARER))).isEqualTo(429);
        advance(Duration.ofMillis(1));
        assertThat(status(chat.handle(body(10), BEARER))).isEqualTo(200);
    }

    @Test
    void shouldRefuseAnUnknownKeyAndAnotherModelWithoutCharging() throws Exception {
        ChatCompletions chat = endpoint(SimulatorConfig.builder().noLatency().rpm(60).burstSeconds(1));

        assertThat(status(chat.handle(body(10), "Bearer sk-wrong"))).isEqualTo(401);
        Reply other = chat.handle("{\"model\":\"gpt-x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"
                .getBytes(StandardCharsets.UTF_8), BEARER);
        assertThat(status(other)).isEqualTo(404);
        assertThat(((Reply.Now) other).headers()).containsEntry("x-ratelimit-remaining-requests", "1");
        assertThat(status(chat.handle(body(10), BEARER))).as("the one request of the bucket is still there").isEqualTo(200);
    }

    @Test
    void shouldCarryTheBucketsAsTheyWereAtAdmissionUnlessToldToTakeThemAtTheAnswer() throws Exception {
        // 60 RPM, a 5 s bucket: 5 requests of capacity
        ChatCompletions atAdmission = endpoint(SimulatorConfig.builder().noLatency().rpm(60).burstSeconds(5));
        Reply.Later first = (Reply.Later) atAdmission.handle(body(10), BEARER);
        atAdmission.handle(body(10), BEARER);

        assertThat(first.headersNow()).containsEntry("x-ratelimit-remaining-requests", "4");

        faults = Faults.none();
        ChatCompletions atAnswer = endpoint(SimulatorConfig.builder().noLatency().rpm(60).burstSeconds(5)
                .headersAt(HeaderMoment.ANSWER));
        Reply.Later answered = (Reply.Later) atAnswer.handle(body(10), BEARER);
        atAnswer.handle(body(10), BEARER);

        assertThat(answered.headers()).containsEntry("x-ratelimit-remaining-requests", "4");
        assertThat(answered.headersNow()).as("the second call, admitted before this answer is sent, is in its headers")
                .containsEntry("x-ratelimit-remaining-requests", "3")
                .containsKey("openai-processing-ms");
    }

    @Test
    void shouldDebitThePromptOnlyWhenToldNotToChargeMaxTokens() throws Exception {
        // 60,000 TPM, a 5 s bucket: 5,000 tokens; a prompt of some tens of tokens and max_tokens of 1,000
        ChatCompletions both = endpoint(SimulatorConfig.builder().noLatency().tpm(60_000).burstSeconds(5));
        ChatCompletions promptOnly = endpoint(SimulatorConfig.builder().noLatency().tpm(60_000).burstSeconds(5).chargesMaxTokens(false));

        long withMax = 5_000 - Long.parseLong(((Reply.Later) both.handle(body(1_000), BEARER)).headers()
                .get("x-ratelimit-remaining-tokens"));
        long prompt = 5_000 - Long.parseLong(((Reply.Later) promptOnly.handle(body(1_000), BEARER)).headers()
                .get("x-ratelimit-remaining-tokens"));

        assertThat(prompt).as("the prompt's tokens").isBetween(10L, 100L);
        assertThat(withMax).as("the prompt and max_tokens").isEqualTo(prompt + 1_000);
    }
}
