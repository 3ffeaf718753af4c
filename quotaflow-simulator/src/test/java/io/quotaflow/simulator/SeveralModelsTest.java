package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.tokens.TokenCounter.ChatMessage;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Several models on one simulator, decided without HTTP on a manual clock: each model's own
 * buckets, headers, context window, tokenizer, keys, counts, outage and down state.
 */
class SeveralModelsTest {

    private static final String KEY = "sk-test-models";
    private static final String BEARER = "Bearer " + KEY;
    private static final String MINI = "gpt-4o-mini";
    private static final String BIG = "gpt-4o";
    private static final String TICKET = "{\"tickets\":[{\"id\":\"t-1\",\"subject\":\"Refund\",\"body\":\"I was charged twice "
            + "this month and nobody answers my e-mails about it, please refund the second charge\"}]}";

    private final ObjectMapper mapper = new ObjectMapper();
    private final AtomicLong nanos = new AtomicLong(42_000_000_000L);
    private final SimClock clock = SimClock.anchored(nanos::get, 1_700_000_000_000L);
    private Faults faults = Faults.none();
    private StatsRecorder stats;

    /** The default model {@value #MINI} at 60 RPM and {@value #BIG} at 120 RPM, both over a 1 s burst. */
    private ChatCompletions endpoint(ModelSpec big) {
        SimulatorConfig config = SimulatorConfig.builder().noLatency().apiKeys(Set.of(KEY)).rpm(60).burstSeconds(1)
                .serve(big).build();
        stats = new StatsRecorder(config, clock);
        return new ChatCompletions(config, clock, clock.nanos(), () -> faults, stats, new Random(config.seed()));
    }

    private ChatCompletions endpoint() {
        return endpoint(ModelSpec.of(BIG).withLimits(120, 200_000).withBurstSeconds(1));
    }

    private byte[] body(String model, int maxTokens) throws Exception {
        ObjectNode req = mapper.createObjectNode().put("model", model).put("max_tokens", maxTokens);
        req.putArray("messages").addObject().put("role", "user").put("content", TICKET);
        return mapper.writeValueAsBytes(req);
    }

    private static int status(Reply reply) {
        return reply instanceof Reply.Now ? ((Reply.Now) reply).status() : 200;
    }

    private JsonNode json(Reply reply) throws Exception {
        return mapper.readTree(reply instanceof Reply.Now ? ((Reply.Now) reply).body() : ((Reply.Later) reply).body());
    }

    private static Map<String, String> headers(Reply reply) {
        return reply instanceof Reply.Now ? ((Reply.Now) reply).headers() : ((Reply.Later) reply).headers();
    }

    @Test
    void shouldKeepEachModelsBucketsHeadersAndCountsApart() throws Exception {
        ChatCompletions chat = endpoint();

        Reply miniFirst = chat.handle(body(MINI, 10), BEARER);
        Reply miniSecond = chat.handle(body(MINI, 10), BEARER);
        Reply bigFirst = chat.handle(body(BIG, 10), BEARER);
        Reply bigSecond = chat.handle(body(BIG, 10), BEARER);
        Reply bigThird = chat.handle(body(BIG, 10), BEARER);

        assertThat(status(miniFirst)).isEqualTo(200);
        assertThat(status(miniSecond)).as("60 RPM over 1 s holds one request").isEqualTo(429);
        assertThat(status(bigFirst)).as("the other model's bucket is its own").isEqualTo(200);
        assertThat(status(bigSecond)).isEqualTo(200);
        assertThat(status(bigThird)).as("120 RPM over 1 s holds two").isEqualTo(429);
        assertThat(headers(miniFirst)).containsEntry("x-ratelimit-limit-requests", "60")
                .containsEntry("x-ratelimit-remaining-requests", "0");
        assertThat(headers(bigFirst)).containsEntry("x-ratelimit-limit-requests", "120")
                .containsEntry("x-ratelimit-remaining-requests", "1");
        assertThat(json(bigThird).path("error").path("message").asText()).startsWith("Rate limit reached for gpt-4o in");
        assertThat(json(bigFirst).path("model").asText()).isEqualTo(BIG);

        SimulatorStats snapshot = stats.snapshot();
        assertThat(snapshot.models()).containsOnlyKeys(MINI, BIG);
        ModelStats mini = snapshot.model(MINI);
        ModelStats big = snapshot.model(BIG);
        assertThat(mini.requests()).isEqualTo(2);
        assertThat(mini.http429()).isEqualTo(1);
        assertThat(mini.requestsAdmitted()).isEqualTo(1);
        assertThat(big.requests()).isEqualTo(3);
        assertThat(big.http429()).isEqualTo(1);
        assertThat(big.requestsAdmitted()).isEqualTo(2);
        assertThat(big.rpmLimit()).isEqualTo(120);
        assertThat(big.promptTokens()).isEqualTo(2 * json(bigFirst).path("usage").path("prompt_tokens").asLong());
        assertThat(snapshot.requestsAdmitted()).as("the totals are over every model").isEqualTo(3);
    }

    @Test
    void shouldAnswer404ModelNotFoundInOpenAisShapeForAModelNotServed() throws Exception {
        ChatCompletions chat = endpoint();

        Reply reply = chat.handle(body("gpt-5-preview", 10), BEARER);

        assertThat(status(reply)).isEqualTo(404);
        JsonNode error = json(reply).path("error");
        assertThat(error.path("code").asText()).isEqualTo("model_not_found");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText())
                .isEqualTo("The model `gpt-5-preview` does not exist or you do not have access to it.");
        assertThat(error.path("param").isNull()).isTrue();
        assertThat(stats.snapshot().model(MINI).requests()).as("counted for no served model").isZero();
        assertThat(stats.snapshot().model(BIG).requests()).isZero();
    }

    @Test
    void shouldApplyEachModelsOwnContextWindowAndTokenizer() throws Exception {
        ChatCompletions chat = endpoint(ModelSpec.of(BIG).withContextTokens(60).withTokenizer(SimTokenizer.CHARS));

        Reply small = chat.handle(body(BIG, 20), BEARER);
        Reply roomy = chat.handle(body(MINI, 20), BEARER);

        assertThat(status(small)).isEqualTo(400);
        assertThat(json(small).path("error").path("code").asText()).isEqualTo("context_length_exceeded");
        int charsPrompt = SimTokenizer.CHARS.counter(BIG).countChat(
                List.of(new ChatMessage("user", TICKET)));
        assertThat(json(small).path("error").path("message").asText())
                .startsWith("This model's maximum context length is 60 tokens. However, you requested "
                        + (charsPrompt + 20) + " tokens (" + charsPrompt + " in the messages");
        assertThat(status(roomy)).as("the default model keeps its 128 000 window").isEqualTo(200);
        int o200kPrompt = SimTokenizer.O200K_BASE.counter(MINI).countChat(
                List.of(new ChatMessage("user", TICKET)));
        assertThat(json(roomy).path("usage").path("prompt_tokens").asInt()).isEqualTo(o200kPrompt).isNotEqualTo(charsPrompt);
        assertThat(stats.snapshot().model(BIG).contextLengthRefusals()).isEqualTo(1);
        assertThat(stats.snapshot().model(BIG).http400()).isEqualTo(1);
        assertThat(stats.snapshot().model(BIG).tokenizer()).isEqualTo("chars");
        assertThat(stats.snapshot().model(MINI).contextLengthRefusals()).isZero();
    }

    @Test
    void shouldAcceptAModelsOwnKeysForThatModelOnly() throws Exception {
        ChatCompletions chat = endpoint(ModelSpec.of(BIG).withApiKeys(Set.of("sk-big")));

        assertThat(status(chat.handle(body(BIG, 10), "Bearer sk-big"))).isEqualTo(200);
        assertThat(status(chat.handle(body(BIG, 10), BEARER))).isEqualTo(401);
        assertThat(status(chat.handle(body(MINI, 10), "Bearer sk-big"))).isEqualTo(401);
        assertThat(status(chat.handle(body(MINI, 10), BEARER))).isEqualTo(200);
    }

    @Test
    void shouldTakeOneModelDownAndBringItBackWhileTheOtherServes() throws Exception {
        ChatCompletions chat = endpoint(ModelSpec.of(BIG));

        chat.model(BIG).setDown(503);
        Reply down = chat.handle(body(BIG, 10), BEARER);
        Reply other = chat.handle(body(MINI, 10), BEARER);
        chat.model(BIG).setDown(0);
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        Reply back = chat.handle(body(BIG, 10), BEARER);

        assertThat(status(down)).isEqualTo(503);
        assertThat(json(down).path("error").path("message").asText()).isEqualTo("The server is overloaded or not ready yet.");
        assertThat(status(other)).isEqualTo(200);
        assertThat(status(back)).isEqualTo(200);
        assertThat(stats.snapshot().model(BIG).downAnswers()).isEqualTo(1);
        assertThat(stats.snapshot().model(BIG).requestsAdmitted()).as("a down answer charges nothing").isEqualTo(1);
        assertThat(stats.snapshot().model(MINI).downAnswers()).isZero();
        assertThat(stats.snapshot().faultsInjected("down")).isEqualTo(1);

        chat.model(BIG).setDown(404);
        assertThat(json(chat.handle(body(BIG, 10), BEARER)).path("error").path("code").asText()).isEqualTo("model_not_found");
        chat.model(BIG).setDown(429);
        assertThat(json(chat.handle(body(BIG, 10), BEARER)).path("error").path("code").asText()).isEqualTo("insufficient_quota");
    }

    @Test
    void shouldAnswer503OnlyForTheModelAnOutageWindowNames() throws Exception {
        faults = Faults.builder().outage(BIG, Duration.ofSeconds(10), Duration.ofSeconds(20)).build();
        ChatCompletions chat = endpoint(ModelSpec.of(BIG));

        assertThat(status(chat.handle(body(BIG, 10), BEARER))).isEqualTo(200);
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(status(chat.handle(body(BIG, 10), BEARER))).isEqualTo(503);
        assertThat(status(chat.handle(body(MINI, 10), BEARER))).as("the other model is up").isEqualTo(200);
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(status(chat.handle(body(BIG, 10), BEARER))).isEqualTo(200);
        assertThat(stats.snapshot().model(BIG).downAnswers()).isEqualTo(1);
        assertThat(stats.snapshot().model(BIG).requestsWithStatus(503)).isEqualTo(1);
    }

    @Test
    void shouldRefuseAModelServedTwiceAndAnInvalidSpec() {
        assertThatThrownBy(() -> SimulatorConfig.builder().serve(ModelSpec.of(MINI)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("model gpt-4o-mini is served twice");
        assertThatThrownBy(() -> SimulatorConfig.builder().serve(ModelSpec.of(BIG)).serve(ModelSpec.of(BIG)).build())
                .hasMessageContaining("served twice");
        assertThatThrownBy(() -> ModelSpec.of(BIG).withLimits(0, 10)).hasMessage("model gpt-4o: rpm must be > 0: 0");
        assertThatThrownBy(() -> ModelSpec.of(BIG).withBurstSeconds(61)).hasMessageContaining("burst-seconds must be in (0, 60]");
        assertThatThrownBy(() -> ModelSpec.of(" x")).hasMessageContaining("spaces");
        assertThat(SimulatorConfig.builder().serve(ModelSpec.of(BIG)).build().models()).extracting(ModelSpec::name)
                .containsExactly(MINI, BIG);
    }

    @Test
    void shouldParseAndPrintAnOutageOfOneModel() {
        Outage outage = Outage.parse("gpt-4o@30:90.5");

        assertThat(outage.model()).contains(BIG);
        assertThat(outage.toString()).isEqualTo("gpt-4o@30:90.5");
        assertThat(outage.covers(BIG, Duration.ofSeconds(30))).isTrue();
        assertThat(outage.covers(MINI, Duration.ofSeconds(30))).isFalse();
        assertThat(Outage.parse("30:90").covers(MINI, Duration.ofSeconds(30))).isTrue();
        assertThat(FaultsJson.fromJson(FaultsJson.toJson(Faults.builder().outage(outage).build())).outages())
                .containsExactly(outage);
        assertThatThrownBy(() -> Outage.parse("@30:90")).hasMessageContaining("model name before '@'");
        assertThatThrownBy(() -> Outage.parse("gpt-4o@30")).hasMessageContaining("[MODEL@]START:END");
    }
}
