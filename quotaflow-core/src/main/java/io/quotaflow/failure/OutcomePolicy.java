package io.quotaflow.failure;

import io.quotaflow.settings.RetrySettings;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.ticket.WorkItem;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The failure table as data flow: what one call's outcome means for each of its tickets, and what
 * the scope learns from it. A pure function of (batch, outcome, time); the processor carries the
 * decision out. See {@code docs/design.md}, "Failures".
 */
public final class OutcomePolicy {

    /** Most a ticket's {@code max_tokens} may be raised after {@code finish_reason=length}. */
    static final int MAX_TOKENS_BOOST = 8;
    static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(1);

    /** What happens to one ticket. */
    public sealed interface Action {

        WorkItem item();

        /** Write its classification. */
        record Classify(WorkItem item, ModelOutcome.Label label) implements Action {
        }

        /** Back to pending as given (split, bisected, boosted, rate limited, halted): no attempt consumed. */
        record Requeue(WorkItem item) implements Action {
        }

        /** To the retry topic, attempt + 1, after a backoff (the provider's hint when given). */
        record Retry(WorkItem item, String kind, int status, String message, Optional<Duration> hint) implements Action {
        }

        /** To the dead-letter topic. */
        record DeadLetter(WorkItem item, String kind, int status, String message) implements Action {
        }
    }

    /** What the scope's health hears. */
    public enum Health {
        /** The provider answered (even a refusal of the request itself). */
        SUCCEEDED,
        /** A transient failure: counts toward the circuit breaker. */
        FAILED,
        /** A 429: a rate limit, not a failure of the provider. */
        RATE_LIMITED,
        /** Credentials, model or quota refused: stop dispatch. */
        HALT
    }

    /**
     * @param actions  one per ticket answered for
     * @param health   what the health hears
     * @param reason   the halt or failure message, when there is one
     * @param cooldown how long the whole scope pauses (429), before jitter
     * @param refund   the provider refused the call before admitting it: it cost nothing
     * @param learnContextWindow the message may state the model's context window
     * @param budgetSample the answer's completion tokens are a fair sample for the learned max_tokens
     */
    public record Decision(List<Action> actions, Health health, String reason, Optional<Duration> cooldown, boolean refund,
                    boolean learnContextWindow, boolean budgetSample) {
    }

    private final RetrySettings retry;

    public OutcomePolicy(RetrySettings retry) {
        this.retry = retry;
    }

    public Decision decide(int maxTokens, List<WorkItem> items, ModelOutcome outcome, long now) {
        List<Action> actions = new ArrayList<>(items.size());
        if (outcome instanceof ModelOutcome.Answered answered) {
            boolean sample = !answered.truncated() && answered.invalid().isEmpty();
            if (answered.labels().isEmpty() && items.size() > 1 && !answered.truncated()) {
                // nothing usable: bisect, so that a poison ticket ends up alone; no attempt consumed
                int half = (items.size() + 1) / 2;
                items.forEach(i -> actions.add(new Action.Requeue(i.withBatchCap(half))));
            } else {
                for (WorkItem item : items) {
                    ModelOutcome.Label label = answered.labels().get(item.key());
                    if (label != null) {
                        actions.add(new Action.Classify(item, label));
                    } else if (answered.truncated() && item.maxTokensBoost() < MAX_TOKENS_BOOST) {
                        // cut at max_tokens: ask again at once with twice the budget, no attempt consumed
                        actions.add(new Action.Requeue(item.withMaxTokensBoost(item.maxTokensBoost() * 2)));
                    } else {
                        String why = answered.truncated() ? "finish_reason=length even with max_tokens=" + maxTokens
                                : answered.invalid().getOrDefault(item.key(), "invalid answer");
                        actions.add(retryOrDeadLetter(item.withBatchCap(1), ErrorKind.INVALID_OUTPUT.wire(), 200, why, Optional.empty(), now));
                    }
                }
            }
            return new Decision(actions, Health.SUCCEEDED, null, Optional.empty(), false, false, sample);
        }
        if (outcome instanceof ModelOutcome.RateLimited limited) {
            items.forEach(i -> actions.add(new Action.Requeue(i)));
            return new Decision(actions, Health.RATE_LIMITED, limited.message(),
                    Optional.of(limited.retryAfter().orElse(DEFAULT_COOLDOWN)), false, false, false);
        }
        ModelOutcome.Failed failed = (ModelOutcome.Failed) outcome;
        boolean refused = refused(failed) && failed.rateLimits().isEmpty();
        return switch (failed.kind()) {
            case TRANSIENT, TIMEOUT -> {
                String kind = failed.kind() == ModelOutcome.FailureKind.TIMEOUT ? ErrorKind.TIMEOUT.wire() : ErrorKind.TRANSIENT.wire();
                items.forEach(i -> actions.add(retryOrDeadLetter(i, kind, failed.status(), failed.message(), failed.retryAfter(), now)));
                yield new Decision(actions, Health.FAILED, failed.message(), Optional.empty(), false, false, false);
            }
            case CONTEXT_LENGTH -> {
                if (items.size() == 1) {
                    actions.add(new Action.DeadLetter(items.get(0), ErrorKind.TOO_LARGE.wire(), failed.status(), failed.message()));
                } else {
                    int half = (items.size() + 1) / 2;
                    items.forEach(i -> actions.add(new Action.Requeue(i.withBatchCap(half))));
                }
                yield new Decision(actions, Health.SUCCEEDED, null, Optional.empty(), refused, true, false);
            }
            case OVERLOADED -> {
                // the engine is full, not failing: sent again as the in-flight limit (lowered by it) allows
                items.forEach(i -> actions.add(new Action.Requeue(i)));
                yield new Decision(actions, Health.SUCCEEDED, null, Optional.empty(), refused, false, false);
            }
            case HALT -> {
                items.forEach(i -> actions.add(new Action.Requeue(i)));
                yield new Decision(actions, Health.HALT, "HTTP " + failed.status() + ": " + failed.message(), Optional.empty(),
                        refused, false, false);
            }
            case NON_RETRYABLE -> {
                items.forEach(i -> actions.add(new Action.DeadLetter(i, ErrorKind.NON_RETRYABLE.wire(), failed.status(), failed.message())));
                yield new Decision(actions, Health.SUCCEEDED, null, Optional.empty(), refused, false, false);
            }
        };
    }

    /** A retry, or the dead letter it becomes once attempts or age are spent. */
    Action retryOrDeadLetter(WorkItem item, String kind, int status, String message, Optional<Duration> hint, long now) {
        int attempts = item.attempt() + 1;
        boolean tooOld = now - item.enqueuedAt() >= retry.maxAge().toMillis();
        if (attempts < retry.maxAttempts() && !tooOld) {
            return new Action.Retry(item, kind, status, message, hint);
        }
        WorkItem.FailureState failure = new WorkItem.FailureState(item.failure() == null ? now : item.failure().firstFailure(), now,
                kind, status, message, item.failedCallMs(), item.retryWaitMs());
        String finalKind = ErrorKind.INVALID_OUTPUT.wire().equals(kind) ? ErrorKind.INVALID_OUTPUT.wire() : ErrorKind.RETRIES_EXHAUSTED.wire();
        String why = (tooOld ? "older than " + retry.maxAge().toSeconds() + " s" : attempts + " attempts") + "; last error: " + message;
        return new Action.DeadLetter(item.withAttemptFailed(failure, 0), finalKind, status, why);
    }

    /** Whether the provider refused the call before admitting it (so it charged nothing). */
    static boolean refused(ModelOutcome.Failed failed) {
        return switch (failed.kind()) {
            case CONTEXT_LENGTH, HALT, NON_RETRYABLE, OVERLOADED -> failed.status() >= 300 && failed.status() < 500;
            case TRANSIENT, TIMEOUT -> false;
        };
    }
}
