package io.quotaflow.dispatch.outcome;

import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.plan.ProviderModel;
import io.quotaflow.dispatch.report.DispatcherListener;

import io.quotaflow.settings.RetrySettings;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.model.ModelOutcome;
import io.quotaflow.records.Classification;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import io.quotaflow.failure.OutcomePolicy;
import io.quotaflow.deadline.DeadlineAction;
import io.quotaflow.deadline.DeadlinePolicy;
import io.quotaflow.deadline.HandoffReason;

/**
 * Carries out what the {@link OutcomePolicy} decided for one answered call: the provider model
 * (limiter, calibration, context window, completion budget) and the scope's health hear the
 * outcome, a 429 pauses the scope with jitter, and each ticket goes its way (a result, back to
 * pending, a delayed retry, a dead letter), its ledger entry updated in the same step as the record
 * it forwards, so both commit together.
 */
public final class OutcomeApplier {

    private static final Logger LOG = LoggerFactory.getLogger(OutcomeApplier.class);
    /** Spilled tickets dead-lettered for their age per sweep at most (the sweep runs once a second). */
    static final int EXPIRE_SPILLED_PER_SWEEP = 10_000;

    private final String scope;
    /** What the log lines name the scope by: its routes ({@code route default}). */
    private final String who;
    private final RetrySettings retry;
    private final OutcomePolicy policy;
    private final ProviderModel provider;
    private final ScopeHealth health;
    private final DispatchLedger ledger;
    private final RecordEmitter emitter;
    private final DispatcherListener listener;
    private final RandomGenerator random;
    private final Consumer<Record<String, Outbound>> forward;
    private final Diversion endings;
    private final DeadlinePolicy deadlines;

    /** What else happens when a ticket ends here: a context fallback instead of a too-large dead letter, the cache's followers. */
    public interface Diversion {
        /** True when {@code item}, too large here, was sent elsewhere (it is done here). */
        boolean divert(WorkItem item, long now);

        /** {@code item} was classified as {@code result}. */
        default void classified(WorkItem item, Classification result, long now) {
        }

        /** {@code item} was dead-lettered. */
        default void deadLettered(WorkItem item, String kind, int status, String message, long now) {
        }

        /** {@code item} went to the retry topic after a {@code kind} failure. */
        default void retried(WorkItem item, String kind, long now) {
        }

        /** {@code items} wait again. */
        default void requeued(List<WorkItem> items, long now) {
        }

        /** {@code item}, cancelled while its call was out, was not answered by it: it ends, nothing written. */
        default void cancelled(WorkItem item, long now) {
        }

        /** Answers {@code item}, which will miss its deadline, from a stale cache entry if there is one; true when it did. */
        default boolean answeredStale(WorkItem item, long now) {
            return false;
        }

        /** {@code item} was handed off to people ({@code tickets.handoff}). */
        default void handedOff(WorkItem item, String reason, long now) {
        }

        /** The route {@code item} is on (its name). */
        default String route(WorkItem item) {
            return item.routed().route() == null ? io.quotaflow.routing.RouteSettings.DEFAULT_NAME : item.routed().route();
        }
    }

    public OutcomeApplier(String scope, String who, RetrySettings retry, OutcomePolicy policy, ProviderModel provider, ScopeHealth health,
                   DispatchLedger ledger, RecordEmitter emitter, DispatcherListener listener, RandomGenerator random,
                   Consumer<Record<String, Outbound>> forward, Diversion endings, DeadlinePolicy deadlines) {
        this.endings = endings;
        this.deadlines = deadlines;
        this.scope = scope;
        this.who = who;
        this.retry = retry;
        this.policy = policy;
        this.provider = provider;
        this.health = health;
        this.ledger = ledger;
        this.emitter = emitter;
        this.listener = listener;
        this.random = random;
        this.forward = forward;
    }

    /**
     * The answer to {@code batch}, for those of its {@code items} still current; {@code admission}
     * is the call's, when this incarnation admitted it.
     */
    public void apply(InFlightBatch batch, List<WorkItem> items, ModelOutcome outcome, Optional<ProviderModel.Admission> admission, long now) {
        OutcomePolicy.Decision decision = policy.decide(batch.maxTokens(), items, outcome, now);
        if (items.isEmpty()) {
            // every ticket of the call was updated or withdrawn while it was out: no ticket goes
            // anywhere, but the scope's health still hears the provider (a half-open probe's
            // permit is given back this way), and a 429 still pauses the scope
            hear(decision, outcome, now);
            return;
        }
        if (provider.learn(batch, items, outcome, decision, admission, ledger.callsInFlight())) {
            LOG.info("{}: the provider's context window is {} tokens; larger tickets are dead-lettered too-large "
                    + "without a call", who, provider.window().tokens());
        }
        hear(decision, outcome, now);
        List<WorkItem> requeued = new ArrayList<>();
        for (OutcomePolicy.Action action : decision.actions()) {
            if (!(action instanceof OutcomePolicy.Action.Classify) && ledger.cancelledWhileOut(action.item().key())) {
                // cancelled while its call was out, and that call did not answer it: it ends here, nothing written
                ledger.finish(action.item());
                endings.cancelled(action.item(), now);
                continue;
            }
            if (action instanceof OutcomePolicy.Action.Classify c) {
                classified(c.item(), c.label(), batch, (ModelOutcome.Answered) outcome, now);
            } else if (action instanceof OutcomePolicy.Action.Requeue r) {
                requeued.add(r.item());
            } else if (action instanceof OutcomePolicy.Action.Retry r) {
                RecordEmitter.Emitted emitted = emitter.retry(r.item(), r.kind(), r.status(), r.message(), r.hint(),
                        now - batch.dispatchedAt(), now);
                if (deadlines.settings().action() != DeadlineAction.KEEP
                        && DeadlinePolicy.retryMisses(r.item().deadline(), emitted.item().notBefore(), now - batch.dispatchedAt())) {
                    // its retry would come back too late for its deadline: it leaves now, before the deadline
                    missed(emitted.item(), HandoffReason.ETA, emitted.item().notBefore() + (now - batch.dispatchedAt()), now);
                    continue;
                }
                ledger.retried(emitted.item());
                forward.accept(emitted.record());
                listener.retried(scope, r.kind());
                endings.retried(emitted.item(), r.kind(), now);
            } else if (action instanceof OutcomePolicy.Action.DeadLetter d) {
                deadLetter(d.item(), d.kind(), d.status(), d.message(), now);
            }
        }
        ledger.requeue(requeued);
        endings.requeued(requeued, now);
    }

    /**
     * The answer to a halted scope's probe, a call of its own that carries no ticket
     * ({@link io.quotaflow.model.PromptBuilder#probe}): the health hears it as any call's answer (accepted:
     * dispatch resumes; refused again: the next probe an interval later; a 429: the key works, the scope
     * cools down), and a call refused before admission gives its charge back.
     */
    public void probed(ModelOutcome outcome, Optional<ProviderModel.Admission> admission, long now) {
        OutcomePolicy.Decision decision = policy.decide(1, List.of(), outcome, now);
        if (decision.refund()) {
            admission.ifPresent(a -> provider.refund(a));
        }
        hear(decision, outcome, now);
    }

    /** The scope's health hears what the call's outcome means; a 429 pauses the scope. */
    private void hear(OutcomePolicy.Decision decision, ModelOutcome outcome, long now) {
        switch (decision.health()) {
            case SUCCEEDED -> health.succeeded(now, outcome.latencyMs());
            case FAILED -> health.failed(now, outcome.latencyMs(), decision.reason());
            case RATE_LIMITED -> health.rateLimited(now);
            case HALT -> health.halt(now, decision.reason());
        }
        decision.cooldown().ifPresent(wait -> coolDown(wait, decision.reason()));
    }

    /**
     * Dead-letters tickets past the maximum age: those that already failed at least once, and all
     * of them while the circuit is open (an outage longer than the budget ends in the dead-letter
     * topic, ready for replay). A halted scope dead-letters nothing: a fixed key resumes the work.
     */
    public void expireOld(long now) {
        if (health.halted()) {
            return;
        }
        long maxAge = retry.maxAge().toMillis();
        boolean outage = health.circuitOpen();
        List<WorkItem> old = ledger.expire(r -> now - r.enqueuedAt() >= maxAge && (r.attempt() > 0 || outage));
        if (outage) {
            // spilled tickets are the newest of their class: read from the oldest, bounded per sweep
            old.addAll(ledger.expireSpilled(now - maxAge, EXPIRE_SPILLED_PER_SWEEP));
        }
        for (WorkItem item : old) {
            String last = item.failure() == null ? "none (never dispatched: circuit " + health.circuitState() + ")"
                    : item.failure().kind() + ": " + item.failure().message();
            deadLetter(item, ErrorKind.RETRIES_EXHAUSTED.wire(), item.failure() == null ? 0 : item.failure().status(),
                    "older than " + retry.maxAge().toSeconds() + " s after " + item.attempt() + " attempts; last error: " + last,
                    now);
        }
    }

    /**
     * Ends {@code item}, which will miss its deadline: answered from a stale cache entry if there is one, else
     * as {@code deadline.action} says: handed off, or shed ({@code keep} never comes here). {@code etaAt}: when
     * it would have been done (0: not known).
     */
    public void missed(WorkItem item, HandoffReason reason, long etaAt, long now) {
        if (endings.answeredStale(item, now)) {
            // an answer past its TTL, within cache.stale-ttl, rather than none in time
            ledger.finish(item);
            return;
        }
        if (deadlines.settings().action() == DeadlineAction.SHED) {
            deadLetter(item, ErrorKind.SHED.wire(), 0, "would miss its deadline " + java.time.Instant.ofEpochMilli(item.deadline())
                    + " (" + reason.wire() + "): shed (deadline.action=shed)", now);
            return;
        }
        handOff(item, reason, etaAt, now);
    }

    /** Writes {@code item} to {@code tickets.handoff}: one outcome, in the same transaction as its removal here. */
    void handOff(WorkItem item, HandoffReason reason, long etaAt, long now) {
        ledger.finish(item);
        String route = endings.route(item);
        forward.accept(emitter.handoff(item, reason.wire(), etaAt, route, now));
        listener.handedOff(scope, route, item.priority(), reason.wire());
        endings.handedOff(item, reason.wire(), now);
        LOG.debug("{}: ticket {} handed off ({}), deadline {}", who, item.key(), reason.wire(), item.deadline());
    }

    /** Ends {@code item} in the dead-letter topic (a {@code too-large} one goes to a context fallback if it has one). */
    public void deadLetter(WorkItem item, String kind, int status, String message, long now) {
        ledger.finish(item);
        if (ErrorKind.TOO_LARGE.wire().equals(kind) && endings.divert(item, now)) {
            return;
        }
        forward.accept(emitter.deadLetter(item, kind, status, message, now));
        listener.deadLettered(scope, kind);
        endings.deadLettered(item, kind, status, message, now);
    }

    private void classified(WorkItem item, ModelOutcome.Label label, InFlightBatch batch, ModelOutcome.Answered answered, long now) {
        Classification result = emitter.classification(item, label, batch, answered, now);
        ledger.finish(item);
        forward.accept(emitter.classified(item, result, now));
        listener.classified(scope, item.priority(), result.queuedMs(), Math.max(0, now - item.enqueuedAt()));
        listener.answered(scope, item.priority(), item.attempt() == 0, item.retryWaitMs());
        endings.classified(item, result, now);
    }

    /** A 429: the whole scope pauses for the provider's wait plus up to a quarter of it (at most 1 s) of jitter. */
    private void coolDown(Duration wait, String reason) {
        Duration jitter = Duration.ofMillis(random.nextLong(Math.max(1, Math.min(1000, wait.toMillis() / 4 + 50))));
        provider.rateLimited(wait.plus(jitter));
        LOG.warn("{}: provider answered 429 ({}); all dispatch paused for {} ms, burst allowance now {} %", who,
                reason, wait.plus(jitter).toMillis(), Math.round(provider.burstScale() * 100));
    }
}
