package io.quotaflow.failure;

import io.quotaflow.settings.RetrySettings;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per row of the failure table, without a topology: the policy is a pure function. */
class OutcomePolicyTest {

    private static final long NOW = 1_000_000;
    private final OutcomePolicy policy = new OutcomePolicy(RetrySettings.ofDefaults().withMaxAttempts(3));

    private static WorkItem item(String id, int attempt) {
        return WorkItem.accepted(new WorkItem.Identity(id, Priority.STANDARD, "default"), ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8), new WorkItem.Origin("tickets.standard", 0, id.hashCode() & 0xffff), NOW - 1_000, 10).withAttempt(attempt);
    }

    private static final List<WorkItem> TWO = List.of(item("A", 0), item("B", 0));

    /** The batch's {@code max_tokens}. */
    private static final int MAX_TOKENS = 60;

    private static ModelOutcome.Failed failed(ModelOutcome.FailureKind kind, int status, String message, RateLimitInfo limits) {
        return new ModelOutcome.Failed(kind, status, message, Optional.empty(), limits, 5);
    }

    private OutcomePolicy.Decision decide(List<WorkItem> items, ModelOutcome outcome) {
        return policy.decide(MAX_TOKENS, items, outcome, NOW);
    }

    @Test
    void shouldClassifyEveryValidLabelAndRetryTheRestAlone() {
        ModelOutcome.Answered answered = new ModelOutcome.Answered(Map.of("A", new ModelOutcome.Label("billing", "low")),
                Map.of("B", "urgency 'extreme' is not allowed"), "stop", 200, 20, RateLimitInfo.EMPTY, 40);
        OutcomePolicy.Decision d = decide(TWO, answered);
        assertThat(d.health()).isEqualTo(OutcomePolicy.Health.SUCCEEDED);
        assertThat(d.actions().get(0)).isInstanceOf(OutcomePolicy.Action.Classify.class);
        assertThat(d.actions().get(1)).isInstanceOfSatisfying(OutcomePolicy.Action.Retry.class, r -> {
            assertThat(r.kind()).isEqualTo("invalid-output");
            assertThat(r.item().batchCap()).isEqualTo(1);
            assertThat(r.message()).contains("extreme");
        });
        assertThat(d.budgetSample()).isFalse();
    }

    @Test
    void shouldBisectAWhollyUnusableAnswerWithoutConsumingAnAttempt() {
        ModelOutcome.Answered garbage = new ModelOutcome.Answered(Map.of(), Map.of("A", "malformed", "B", "malformed"), "stop",
                200, 20, RateLimitInfo.EMPTY, 40);
        OutcomePolicy.Decision d = decide(TWO, garbage);
        assertThat(d.actions()).allSatisfy(a -> assertThat(a).isInstanceOfSatisfying(OutcomePolicy.Action.Requeue.class, r -> {
            assertThat(r.item().batchCap()).isEqualTo(1);
            assertThat(r.item().attempt()).isZero();
        }));
    }

    @Test
    void shouldAskAgainWithTwiceTheBudgetWhenCutAtMaxTokens() {
        ModelOutcome.Answered cut = new ModelOutcome.Answered(Map.of(), Map.of(), "length", 200, 60, RateLimitInfo.EMPTY, 40);
        OutcomePolicy.Decision d = decide(List.of(item("A", 0)), cut);
        assertThat(d.actions()).singleElement().isInstanceOfSatisfying(OutcomePolicy.Action.Requeue.class,
                r -> assertThat(r.item().maxTokensBoost()).isEqualTo(2));
        WorkItem maxed = item("A", 0).withMaxTokensBoost(OutcomePolicy.MAX_TOKENS_BOOST);
        assertThat(decide(List.of(maxed), cut).actions()).singleElement().isInstanceOf(OutcomePolicy.Action.Retry.class);
    }

    @Test
    void shouldKeepWhatACutAnswerHeldAndAskAgainForTheRestWithoutConsumingAnAttempt() {
        ModelOutcome.Answered cut = new ModelOutcome.Answered(Map.of("A", new ModelOutcome.Label("billing", "low")),
                Map.of("B", "missing from the answer"), "length", 200, MAX_TOKENS, RateLimitInfo.EMPTY, 40);

        OutcomePolicy.Decision d = decide(TWO, cut);

        assertThat(d.actions()).hasSize(2);
        assertThat(d.actions().get(0)).isInstanceOf(OutcomePolicy.Action.Classify.class);
        assertThat(d.actions().get(1)).isInstanceOfSatisfying(OutcomePolicy.Action.Requeue.class, r -> {
            assertThat(r.item().key()).isEqualTo("B");
            assertThat(r.item().maxTokensBoost()).isEqualTo(2);
            assertThat(r.item().attempt()).isZero();
        });
        assertThat(d.budgetSample()).as("a cut answer is no sample of a whole one").isFalse();
        assertThat(d.refund()).as("the provider charged the cut call").isFalse();
    }

    @Test
    void shouldCoolTheScopeDownOnA429AndConsumeNoAttempt() {
        ModelOutcome.RateLimited limited = new ModelOutcome.RateLimited(Optional.of(Duration.ofMillis(1_280)), "TPM", Optional.empty(),
                Optional.empty(), RateLimitInfo.EMPTY, 3);
        OutcomePolicy.Decision d = decide(TWO, limited);
        assertThat(d.health()).isEqualTo(OutcomePolicy.Health.RATE_LIMITED);
        assertThat(d.cooldown()).contains(Duration.ofMillis(1_280));
        assertThat(d.actions()).allSatisfy(a -> assertThat(a).isInstanceOf(OutcomePolicy.Action.Requeue.class));
        assertThat(d.refund()).isFalse();
        ModelOutcome.RateLimited noHint = new ModelOutcome.RateLimited(Optional.empty(), "RPM", Optional.empty(), Optional.empty(),
                RateLimitInfo.EMPTY, 3);
        assertThat(decide(TWO, noHint).cooldown()).contains(OutcomePolicy.DEFAULT_COOLDOWN);
    }

    @Test
    void shouldHaltOnRefusedCredentialsKeepTheTicketsAndRefundTheCall() {
        OutcomePolicy.Decision d = decide(TWO, failed(ModelOutcome.FailureKind.HALT, 401, "invalid_api_key", RateLimitInfo.EMPTY));
        assertThat(d.health()).isEqualTo(OutcomePolicy.Health.HALT);
        assertThat(d.reason()).isEqualTo("HTTP 401: invalid_api_key");
        assertThat(d.actions()).allSatisfy(a -> assertThat(a).isInstanceOf(OutcomePolicy.Action.Requeue.class));
        assertThat(d.refund()).isTrue();
    }

    @Test
    void shouldRetryTransientFailuresWithTheHintAndCountThemForTheCircuit() {
        ModelOutcome.Failed busy = new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 503, "busy",
                Optional.of(Duration.ofSeconds(7)), RateLimitInfo.EMPTY, 5);
        OutcomePolicy.Decision d = decide(TWO, busy);
        assertThat(d.health()).isEqualTo(OutcomePolicy.Health.FAILED);
        assertThat(d.refund()).as("a 5xx may have been charged").isFalse();
        assertThat(d.actions()).allSatisfy(a -> assertThat(a).isInstanceOfSatisfying(OutcomePolicy.Action.Retry.class, r -> {
            assertThat(r.hint()).contains(Duration.ofSeconds(7));
            assertThat(r.kind()).isEqualTo("transient");
        }));
        OutcomePolicy.Decision timeout = decide(TWO, failed(ModelOutcome.FailureKind.TIMEOUT, 0, "timed out", RateLimitInfo.EMPTY));
        assertThat(timeout.actions()).allSatisfy(a -> assertThat(((OutcomePolicy.Action.Retry) a).kind()).isEqualTo("timeout"));
    }

    @Test
    void shouldSplitOnContextLengthAndDeadLetterASingleTicketAsTooLarge() {
        ModelOutcome.Failed tooLong = failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, 400, "maximum context length is 8192 tokens",
                RateLimitInfo.EMPTY);
        OutcomePolicy.Decision split = decide(TWO, tooLong);
        assertThat(split.actions()).allSatisfy(a -> assertThat(a).isInstanceOfSatisfying(OutcomePolicy.Action.Requeue.class,
                r -> assertThat(r.item().batchCap()).isEqualTo(1)));
        assertThat(split.learnContextWindow()).isTrue();
        assertThat(split.refund()).isTrue();
        assertThat(decide(List.of(item("A", 0)), tooLong).actions()).singleElement()
                .isInstanceOfSatisfying(OutcomePolicy.Action.DeadLetter.class, d -> assertThat(d.kind()).isEqualTo("too-large"));
    }

    @Test
    void shouldNotRefundARefusalWhoseHeadersSayWhatItCost() {
        RateLimitInfo headers = new RateLimitInfo(OptionalLong.of(500), OptionalLong.of(200_000), OptionalLong.of(499),
                OptionalLong.of(190_000), Optional.empty(), Optional.empty(), Optional.empty());
        assertThat(decide(TWO, failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, 400, "too long", headers)).refund()).isFalse();
    }

    @Test
    void shouldDeadLetterWhatTheProviderCallsInvalid() {
        OutcomePolicy.Decision d = decide(TWO, failed(ModelOutcome.FailureKind.NON_RETRYABLE, 422, "bad request", RateLimitInfo.EMPTY));
        assertThat(d.actions()).allSatisfy(a -> assertThat(a).isInstanceOfSatisfying(OutcomePolicy.Action.DeadLetter.class,
                dl -> assertThat(dl.kind()).isEqualTo("non-retryable")));
        assertThat(d.health()).isEqualTo(OutcomePolicy.Health.SUCCEEDED);
    }

    @Test
    void shouldDeadLetterWhenAttemptsOrAgeAreSpent() {
        ModelOutcome.Failed boom = failed(ModelOutcome.FailureKind.TRANSIENT, 500, "boom", RateLimitInfo.EMPTY);
        assertThat(decide(List.of(item("A", 2)), boom).actions()).singleElement()
                .isInstanceOfSatisfying(OutcomePolicy.Action.DeadLetter.class, d -> {
                    assertThat(d.kind()).isEqualTo("retries-exhausted");
                    assertThat(d.item().attempt()).isEqualTo(3);
                    assertThat(d.message()).contains("3 attempts").contains("boom");
                });
        WorkItem old = WorkItem.accepted(new WorkItem.Identity("O", Priority.BULK, "acme"), "{}".getBytes(StandardCharsets.UTF_8), new WorkItem.Origin("tickets.bulk", 0, 1), NOW - RetrySettings.ofDefaults().maxAge().toMillis(), 10);
        assertThat(decide(List.of(old), boom).actions()).singleElement()
                .isInstanceOfSatisfying(OutcomePolicy.Action.DeadLetter.class, d -> assertThat(d.message()).startsWith("older than"));
        ModelOutcome.Answered bad = new ModelOutcome.Answered(Map.of(), Map.of("A", "missing"), "stop", 10, 1, RateLimitInfo.EMPTY, 4);
        assertThat(decide(List.of(item("A", 2)), bad).actions()).singleElement()
                .isInstanceOfSatisfying(OutcomePolicy.Action.DeadLetter.class, d -> assertThat(d.kind()).isEqualTo("invalid-output"));
    }

    @Test
    void shouldSendAnOverloadedCallAgainWithoutAPauseAnAttemptOrAFailure() {
        OutcomePolicy.Decision d = decide(TWO, failed(ModelOutcome.FailureKind.OVERLOADED, 429, "Model is overloaded", RateLimitInfo.EMPTY));
        assertThat(d.actions()).allSatisfy(a -> assertThat(a).isInstanceOf(OutcomePolicy.Action.Requeue.class));
        assertThat(d.actions()).allSatisfy(a -> assertThat(a.item().attempt()).isZero());
        assertThat(d.health()).as("the engine answered: not a failure, not a rate limit").isEqualTo(OutcomePolicy.Health.SUCCEEDED);
        assertThat(d.cooldown()).as("no pause, no lowered burst").isEmpty();
        assertThat(d.refund()).as("refused before it ran: it cost nothing").isTrue();
    }
}
